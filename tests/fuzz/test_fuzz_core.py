"""Fuzzing every public hand-analysis entry point and the core's engine scans (issue 9, item 4).

Inputs: random bytes and buffers of any size, numpy arrays of every dtype, shape and stride (non-contiguous,
reversed, Fortran order, subclasses), huge ints, numpy scalars, bools, floats, None, garbage strings and mixed
lists, for the hand and for every keyword. The property: a call returns a well-formed answer or raises
``hupai.InvalidHand`` (the engine scans: TypeError/ValueError, their documented errors); nothing else, and the
process never crashes. Run briefly by ``make test``, at length by ``make fuzz`` (``HYPOTHESIS_PROFILE=fuzz``).
"""

from __future__ import annotations

import os
from typing import Any

import hupai
import numpy as np
from fuzztally import TALLY
from hupai import Forms, InvalidHand, _core
from hupai.tiles import format_tiles, kind_name, parse, to_counts, to_kinds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# Brief in `make test`, long in `make fuzz` (the profile names of tests/conftest.py).
FUZZ = settings(max_examples=20_000 if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else 150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])

TILE_TEXT = st.text(alphabet=st.sampled_from(list("0123456789mpsz ,") + list("一二三万筒条东南西北白发中红板")
                                             + ["🀇", "🀄", "🀫", "\x00", "x"]), max_size=30)

FakeArray = type("numpy.ndarray", (int,), {})
SCALARS = st.one_of(
    st.integers(-3, 10),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-(2**31), 2**31 - 1, 2**63, -(2**63), 2**64, 2**34, (1 << 34) - 1]),
    st.builds(lambda t, v: t(v), st.sampled_from([np.int8, np.int64, np.uint8, np.uint64, np.intp]),
              st.integers(0, 100)),
    st.booleans(),
    st.sampled_from([np.True_, np.False_, 1.0, 0.0, float("nan"), float("inf"), 1j, None, "1", b"1", FakeArray(5)]),
    st.floats(),
)

DTYPES = st.one_of(hnp.integer_dtypes(endianness="="), hnp.unsigned_integer_dtypes(endianness="="),
                   hnp.integer_dtypes(endianness=">"), hnp.floating_dtypes(), hnp.boolean_dtypes())


@st.composite
def arrays(draw: st.DrawFn, shapes: st.SearchStrategy[tuple[int, ...]]) -> np.ndarray:
    """An array of any dtype, its values mostly small, often viewed with a stride, reversed or transposed."""
    dtype = draw(DTYPES)
    shape = draw(shapes)
    elements = st.integers(0, 5) if dtype.kind in "iu" else None
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    view = draw(st.sampled_from(["plain", "stride", "reverse", "fortran", "readonly", "sub"]))
    if view == "stride" and array.ndim >= 1:
        doubled = np.repeat(array, 2, axis=-1)
        array = doubled[..., ::2]
    elif view == "reverse" and array.ndim >= 1:
        array = array[..., ::-1]
    elif view == "fortran":
        array = np.asfortranarray(array)
    elif view == "readonly":
        array = array.copy()
        array.flags.writeable = False
    elif view == "sub":
        array = array.view(type("Sub", (np.ndarray,), {}))
    return array


COUNTS_34 = st.lists(st.integers(0, 4), min_size=34, max_size=34)
# Hands of a valid size (13 or 14 tiles, at most four of a kind), so that the analysis itself runs.
KINDS = st.lists(st.integers(0, 33), min_size=13, max_size=14).filter(lambda k: max(map(k.count, k)) <= 4)
VALID = st.one_of(
    KINDS,
    KINDS.map(format_tiles),
    KINDS.map(lambda k: to_counts(k)),
    KINDS.map(lambda k: bytes(to_counts(k))),
    KINDS.map(lambda k: to_counts(k).astype(np.int64)),
    KINDS.map(lambda k: np.repeat(to_counts(k), 2)[::2]),
    KINDS.map(lambda k: memoryview(bytearray(to_counts(k)))),
)
HANDS = st.one_of(
    VALID,
    VALID,
    VALID,
    TILE_TEXT,
    st.text(max_size=20),
    COUNTS_34.map(lambda c: np.array(c, dtype=np.uint8)),
    COUNTS_34.map(bytes),
    COUNTS_34.map(bytearray),
    COUNTS_34.map(lambda c: memoryview(bytes(c))),
    st.binary(max_size=40),
    st.binary(max_size=40).map(bytearray),
    arrays(st.one_of(st.just((34,)), hnp.array_shapes(min_dims=0, max_dims=3, max_side=40))),
    st.lists(st.one_of(st.integers(-2, 40), st.booleans(), st.floats(), st.none(), st.text(max_size=2)),
             max_size=16),
    st.lists(st.integers(0, 33), max_size=16),
    SCALARS,
)
KEYWORDS = st.fixed_dictionaries({}, optional={
    "jokers": st.one_of(st.integers(0, 1), st.just(0), SCALARS),
    "melds": st.one_of(st.just(0), st.just(0), SCALARS),
    "forms": st.one_of(st.sampled_from([1, 3, 11, 63, int(Forms.KNITTED)]), st.just(1), SCALARS),
    "joker_kinds": st.one_of(st.none(), st.lists(st.one_of(st.integers(-1, 35), SCALARS), max_size=4), SCALARS),
})


def _call(name: str, function: Any, *args: Any, allowed: tuple[type[BaseException], ...] = (InvalidHand,),
          **kwargs: Any) -> Any:
    """Calls ``function``; a result or an allowed error is tallied, anything else fails the test."""
    try:
        result = function(*args, **kwargs)
    except allowed as error:
        assert str(error), f"{name}: an error without a message"
        TALLY[(name, type(error).__name__)] += 1
        return None
    TALLY[(name, "ok")] += 1
    return result


@FUZZ
@given(HANDS, KEYWORDS)
def test_single_hand_calls(hand: Any, keywords: dict[str, Any]) -> None:
    shanten = _call("shanten", hupai.shanten, hand, **keywords)
    assert shanten is None or (type(shanten) is int and -1 <= shanten <= 8)
    win = _call("is_win", hupai.is_win, hand, **keywords)
    assert win is None or type(win) is bool
    waits = _call("waits", hupai.waits, hand, **keywords)
    assert waits is None or all(type(k) is int and 0 <= k < 34 for k in waits)
    if shanten is not None and waits is not None:
        assert (shanten == 0) == bool(waits) or keywords.get("joker_kinds") is not None
    options = _call("discard_options", hupai.discard_options, hand, **keywords)
    assert options is None or all(0 <= o.kind < 34 for o in options)
    if not isinstance(keywords.get("jokers"), int) or keywords.get("jokers", 0) <= 2:  # joker readings explode
        readings = _call("decompositions", hupai.decompositions, hand, **keywords)
        assert readings is None or (readings == []) == (win is False) or win is None


@FUZZ
@given(HANDS)
def test_notation_calls(hand: Any) -> None:
    counts = _call("to_counts", to_counts, hand)
    if counts is not None:
        assert counts.shape == (34,) and counts.dtype == np.uint8 and int(counts.max(initial=0)) <= 4
    kinds = _call("to_kinds", to_kinds, hand)
    if kinds is not None and counts is not None:
        assert to_counts(kinds).tolist() == counts.tolist()
    text = _call("format_tiles", format_tiles, hand)
    if text is not None and kinds is not None:
        assert sorted(parse(text)) == kinds
    if isinstance(hand, str):
        _call("parse", parse, hand)
    buffer = _call("_core.buffer_counts", _core.buffer_counts, hand)
    assert buffer is None or (type(buffer) is bytes and len(buffer) == 34)


@FUZZ
@given(SCALARS, st.sampled_from(["ascii", "chinese", "unicode", "bad"]))
def test_kind_name(kind: Any, style: str) -> None:
    name = _call("kind_name", kind_name, kind, style)
    assert name is None or isinstance(name, str)


BATCH_KEYWORDS = st.fixed_dictionaries({}, optional={
    "jokers": st.one_of(st.just(0), st.integers(0, 1), SCALARS, arrays(hnp.array_shapes(max_dims=2, max_side=6))),
    "melds": st.one_of(st.just(0), SCALARS, arrays(hnp.array_shapes(min_dims=0, max_dims=2, max_side=6))),
    "forms": st.one_of(st.sampled_from([1, 3, 63]), SCALARS),
    "joker_kinds": st.one_of(st.none(), st.lists(st.integers(-1, 35), max_size=3), SCALARS),
    "threads": st.one_of(st.integers(1, 3), st.just(1), SCALARS),
})
BATCHES = st.one_of(
    st.lists(KINDS.map(lambda k: to_counts(k)), max_size=6).map(lambda rows: np.array(rows, np.uint8).reshape(-1, 34)),
    st.lists(KINDS.map(lambda k: to_counts(k)), max_size=6).map(lambda rows: np.array(rows, np.uint8).reshape(-1, 34)),
    st.lists(COUNTS_34, max_size=6).map(lambda rows: np.array(rows, dtype=np.uint8).reshape(-1, 34)),
    arrays(st.tuples(st.integers(0, 6), st.sampled_from([34, 33, 35, 68]))),
    arrays(hnp.array_shapes(min_dims=0, max_dims=3, max_side=8)),
    HANDS,
)


@FUZZ
@given(BATCHES, BATCH_KEYWORDS)
def test_batch_calls(counts: Any, keywords: dict[str, Any]) -> None:
    if isinstance(counts, np.ndarray) and counts.ndim == 2 and counts.shape[1] == 68:
        counts = counts[:, ::2]  # a non-contiguous (N, 34) view
    out = _call("shanten_batch", hupai.shanten_batch, counts, **keywords)
    assert out is None or (out.dtype == np.int8 and out.ndim == 1 and int(out.max(initial=-1)) <= 8)
    wins = _call("is_win_batch", hupai.is_win_batch, counts, **keywords)
    assert wins is None or wins.dtype == np.bool_


@FUZZ
@given(st.lists(KINDS.map(lambda k: to_counts(k)), min_size=1, max_size=40), st.data())
def test_batches_of_sound_hands(rows: list[np.ndarray], data: st.DataObject) -> None:
    """Sound rows, per-row jokers of a random integer dtype, threads: the batch answers as the single calls do."""
    counts = np.array(rows, dtype=np.uint8)
    sizes = counts.sum(axis=1)
    dtype = data.draw(hnp.integer_dtypes(endianness="=") | hnp.unsigned_integer_dtypes(endianness="="))
    jokers = np.where(sizes % 3 == 1, data.draw(st.integers(0, 1)), 0).astype(dtype)
    forms = data.draw(st.sampled_from([1, 3, 11, 63]))
    threads = data.draw(st.integers(1, 3))
    out = _call("shanten_batch", hupai.shanten_batch, counts, jokers=jokers, forms=forms, threads=threads, allowed=())
    singles = [hupai.shanten(row, jokers=int(j), forms=forms) for row, j in zip(counts, jokers, strict=True)]
    assert out.tolist() == singles
    complete = counts[sizes == 14]
    wins = _call("is_win_batch", hupai.is_win_batch, complete, forms=forms, threads=threads, allowed=())
    assert wins.tolist() == [hupai.is_win(row, forms=forms) for row in complete]


PLAIN = st.one_of(SCALARS, COUNTS_34.map(bytearray), st.lists(st.integers(-1, 4), max_size=5),
                  st.lists(st.none(), max_size=5), st.binary(max_size=40), st.just([[], [], [], []]))
ENGINE_ERRORS = (TypeError, ValueError)


SEAT_HAND = st.one_of(KINDS.map(lambda k: bytearray(to_counts(k))), KINDS.map(lambda k: bytearray(to_counts(k[:13]))))


@FUZZ
@given(st.lists(SEAT_HAND, min_size=4, max_size=4), st.integers(0, 33), st.integers(0, 3), st.integers(1, 63),
       st.integers(0, 15), st.integers(0, 7), st.lists(st.sampled_from([None, True, False]), min_size=4, max_size=4))
def test_engine_scans_on_sound_tables(hands: list[bytearray], tile: int, discarder: int, forms: int, chowers: int,
                                      flags: int, ready: list[bool | None]) -> None:
    shapes, after = _call("_core.claim_scan", _core.claim_scan, hands, [[]] * 4, ready, tile, discarder, forms,
                          chowers, flags, allowed=())
    assert shapes >> (8 * discarder) & 0xFF == 0 and shapes < 1 << 32
    assert after is None or all(old is None or old is new for old, new in zip(ready, after, strict=True))
    for hand in hands:
        bits = _call("_core.turn_scan", _core.turn_scan, hand, 0, shapes & ((1 << 34) - 1), tile, forms, allowed=())
        assert bits in (0, 1, 2, 3)


@FUZZ
@given(st.lists(st.one_of(SEAT_HAND, COUNTS_34.map(bytes), PLAIN), min_size=0, max_size=5),
       st.one_of(st.lists(st.one_of(st.integers(-1, 5), st.lists(st.none(), max_size=5), SCALARS), max_size=5), PLAIN),
       st.one_of(st.lists(st.one_of(st.none(), st.booleans(), st.integers(-2, 2), SCALARS), max_size=5), PLAIN),
       st.lists(st.one_of(st.integers(-1, 64), SCALARS), min_size=5, max_size=5))
def test_engine_scans(hands: list[Any], melds: Any, ready: Any, ints: list[Any]) -> None:
    """The engine's own helpers: an answer, or the TypeError/ValueError they document."""
    before = list(ready) if isinstance(ready, list) else None
    out = _call("_core.claim_scan", _core.claim_scan, hands, melds, ready, *ints, allowed=ENGINE_ERRORS)
    assert out is None or (type(out) is tuple and len(out) == 2 and type(out[0]) is int)
    if before is not None:
        assert ready == before  # the core never writes into what it is given
    hand = hands[0] if hands else bytearray(34)
    bits = _call("_core.turn_scan", _core.turn_scan, hand, melds, *ints[:3], allowed=ENGINE_ERRORS)
    assert bits is None or bits in (0, 1, 2, 3)
    held = _call("_core.held_actions", _core.held_actions, hand, tuple(range(34)), allowed=ENGINE_ERRORS)
    assert held is None or list(held) == sorted(held)
