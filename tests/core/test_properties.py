"""Hypothesis properties of the core that must hold whatever the reference says.

* a complete hand stays complete when one of its tiles (of a kind jokers may stand for) becomes a joker;
* trading a natural tile (of a joker kind) for a joker never raises shanten;
* is_win == (shanten == -1); a 3n+1 hand is ready (shanten 0) iff it has waits;
* waits == the kinds k held fewer than 4 times with is_win(hand + k);
* shanten_batch / is_win_batch == the single-hand calls, row by row, with per-row jokers and melds, and with one
  jokers and melds value for every row (the batch's own loop when the jokers may be any kind).
"""

from __future__ import annotations

import hupai
import numpy as np
import reference as ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import ALL_FORMS, NUM_KINDS, STANDARD, TERMINAL_HONOR_KINDS

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)

masks = st.one_of(
    st.just(ref.ALL_KINDS_MASK),
    st.integers(1, ref.ALL_KINDS_MASK),
    st.sampled_from(
        [
            ref.kinds_to_mask(range(9)),
            ref.kinds_to_mask(range(27, 34)),
            ref.kinds_to_mask(TERMINAL_HONOR_KINDS),
        ]
    ),
)
melds_shapes = st.one_of(
    st.integers(0, 33).map(lambda k: (k, k, k)),
    st.tuples(st.integers(0, 2), st.integers(0, 6)).map(
        lambda s: (9 * s[0] + s[1], 9 * s[0] + s[1] + 1, 9 * s[0] + s[1] + 2)
    ),
)


def _counts(kinds: list[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A complete joker-free hand (counts, melds, form): standard with 0..4 exposed melds, or special."""
    form = draw(st.sampled_from([STANDARD, STANDARD, STANDARD, 2, 4, 8, 16, 32]))
    melds = 0
    if form == STANDARD:
        melds = draw(st.integers(0, 4))
        pair = draw(st.integers(0, 33))
        groups = draw(st.lists(melds_shapes, min_size=4 - melds, max_size=4 - melds))
        kinds = [pair, pair] + [k for group in groups for k in group]
    elif form in (2, 4):
        pairs = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=form == 2))
        kinds = [k for k in pairs for _ in range(2)]
    elif form == 8:
        kinds = list(TERMINAL_HONOR_KINDS) + [draw(st.sampled_from(TERMINAL_HONOR_KINDS))]
    elif form == 16:
        targets = ref.knitted_targets()
        kinds = np.flatnonzero(targets[draw(st.integers(0, len(targets) - 1))]).tolist()
    else:
        kinds = draw(st.lists(st.sampled_from(TERMINAL_HONOR_KINDS), min_size=14, max_size=14))
    counts = _counts(kinds)
    assume(max(counts) <= 4)
    return counts, melds, form


@st.composite
def any_hands(draw: st.DrawFn, complete_size: bool | None = None, max_jokers: int = 8) -> tuple:
    """A valid hand of either size: (counts, jokers, melds, forms, mask); special forms need melds 0."""
    melds = draw(st.integers(0, 4))
    if complete_size is None:
        complete_size = draw(st.booleans())
    size = 3 * (4 - melds) + (2 if complete_size else 1)
    jokers = draw(st.integers(0, min(max_jokers, size)))
    kinds = draw(st.lists(st.integers(0, 33), min_size=size - jokers, max_size=size - jokers))
    counts = _counts(kinds)
    assume(max(counts, default=0) <= 4)
    forms = draw(st.integers(1, ALL_FORMS)) if melds == 0 else STANDARD
    return counts, jokers, melds, forms, draw(masks)


def _call(function, counts: list[int], jokers: int, melds: int, forms: int, mask: int):
    return function(
        np.array(counts, dtype=np.uint8), jokers=jokers, melds=melds, forms=forms, joker_kinds=mask
    )


@PROPERTY_SETTINGS
@given(complete_hands(), st.data())
def test_replacing_tiles_with_jokers_keeps_a_hand_complete(hand: tuple, data: st.DataObject) -> None:
    """Turn up to 4 tiles of a complete hand into jokers that may stand for them: still complete."""
    counts, melds, form = hand
    assert _call(hupai.is_win, counts, 0, melds, form, ref.ALL_KINDS_MASK)
    mask = data.draw(masks)
    jokers = 0
    for _ in range(data.draw(st.integers(1, min(4, sum(counts))))):
        kind = data.draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k]]))
        counts[kind] -= 1
        jokers += 1
        mask |= 1 << kind
        assert _call(hupai.is_win, counts, jokers, melds, form, mask), (
            counts,
            jokers,
            melds,
            form,
            hex(mask),
        )


@PROPERTY_SETTINGS
@given(any_hands(max_jokers=7), st.data())
def test_trading_a_tile_for_a_joker_never_raises_shanten(hand: tuple, data: st.DataObject) -> None:
    """shanten(hand - k, jokers + 1) <= shanten(hand, jokers) when jokers may stand for k."""
    counts, jokers, melds, forms, mask = hand
    assume(sum(counts) > 0)
    before = _call(hupai.shanten, counts, jokers, melds, forms, mask)
    kind = data.draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k]]))
    counts[kind] -= 1
    after = _call(hupai.shanten, counts, jokers + 1, melds, forms, mask | 1 << kind)
    assert after <= before


@PROPERTY_SETTINGS
@given(st.one_of(any_hands(), complete_hands().map(lambda h: (h[0], 0, h[1], h[2], ref.ALL_KINDS_MASK))))
def test_is_win_iff_shanten_is_minus_one(hand: tuple) -> None:
    """is_win and shanten never disagree (complete size); a 3n+1 hand is never complete: shanten >= 0."""
    shanten = _call(hupai.shanten, *hand)
    assert -1 <= shanten <= 13
    if ref.is_complete_size(hand[0], hand[1], hand[2]):
        assert _call(hupai.is_win, *hand) == (shanten == -1)
    else:
        assert shanten >= 0


@st.composite
def ready_or_random(draw: st.DrawFn) -> tuple:
    """3n+1 hands: half a complete hand minus one tile (ready), maybe with a tile turned joker; half
    random."""
    if not draw(st.booleans()):
        return draw(any_hands(complete_size=False))
    counts, melds, form = draw(complete_hands())
    kind = draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k]]))
    counts[kind] -= 1
    mask = draw(masks)
    jokers = 0
    if sum(counts) and draw(st.booleans()):
        kind = draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k]]))
        counts[kind] -= 1
        jokers = 1
    return counts, jokers, melds, form, mask


@PROPERTY_SETTINGS
@given(ready_or_random())
def test_waits_are_exactly_the_winning_draws(hand: tuple) -> None:
    """waits == [k for k with count < 4 if is_win(hand + k)], and non-empty iff shanten == 0."""
    counts, jokers, melds, forms, mask = hand
    waits = _call(hupai.waits, *hand)
    winning_draws = []
    for kind in range(NUM_KINDS):
        if counts[kind] < 4:
            drawn = list(counts)
            drawn[kind] += 1
            if _call(hupai.is_win, drawn, jokers, melds, forms, mask):
                winning_draws.append(kind)
    assert waits == winning_draws
    assert bool(waits) == (_call(hupai.shanten, *hand) == 0)


@PROPERTY_SETTINGS
@given(st.lists(any_hands(), min_size=1, max_size=40), st.integers(1, ALL_FORMS), masks, st.integers(1, 3))
def test_batch_calls_equal_single_calls_row_by_row(hands: list, forms: int, mask: int, threads: int) -> None:
    """shanten_batch / is_win_batch with per-row jokers and melds arrays == shanten / is_win of each row."""
    counts = np.array([h[0] for h in hands], dtype=np.uint8)
    jokers = np.array([h[1] for h in hands], dtype=np.int64)
    melds = np.array([h[2] for h in hands], dtype=np.int32)
    if melds.any():
        forms |= STANDARD  # a row with exposed melds needs the standard form to be valid
    single = [_call(hupai.shanten, h[0], h[1], h[2], forms, mask) for h in hands]
    batch = hupai.shanten_batch(
        counts, jokers=jokers, melds=melds, forms=forms, joker_kinds=mask, threads=threads
    )
    assert batch.dtype == np.int8 and batch.tolist() == single
    complete = [ref.is_complete_size(*h[:3]) for h in hands]  # is_win_batch takes complete-size rows only
    assume(any(complete))
    wins = hupai.is_win_batch(
        counts[complete],
        jokers=jokers[complete],
        melds=melds[complete],
        forms=forms,
        joker_kinds=mask,
        threads=threads,
    )
    assert wins.dtype == np.bool_
    assert wins.tolist() == [s == -1 for s, full in zip(single, complete, strict=True) if full]


@st.composite
def shared_batches(draw: st.DrawFn) -> tuple:
    """Rows that share one jokers and one melds value (a batch passes them as ints): (counts, jokers, melds)."""
    melds = draw(st.integers(0, 4))
    full = 3 * (4 - melds) + 2
    jokers = draw(st.integers(0, min(3, full - 1)))
    rows = []
    for _ in range(draw(st.integers(1, 30))):
        kinds = draw(st.lists(st.integers(0, 33), min_size=full - 1 - jokers, max_size=full - jokers))
        rows.append(_counts(kinds))
    assume(all(max(row) <= 4 for row in rows))
    return rows, jokers, melds


@PROPERTY_SETTINGS
@given(shared_batches(), st.integers(1, ALL_FORMS), masks)
def test_batch_calls_with_shared_jokers_and_melds_equal_single_calls(batch: tuple, forms: int, mask: int) -> None:
    """One jokers and melds int for every row, unrestricted jokers (the batch's own loop) or restricted ones."""
    rows, jokers, melds = batch
    if melds:
        forms |= STANDARD
    counts = np.array(rows, dtype=np.uint8)
    for joker_kinds in (mask, ref.ALL_KINDS_MASK):
        single = [_call(hupai.shanten, row, jokers, melds, forms, joker_kinds) for row in rows]
        got = hupai.shanten_batch(counts, jokers=jokers, melds=melds, forms=forms, joker_kinds=joker_kinds)
        assert got.tolist() == single
        full = [sum(row) + jokers == 3 * (4 - melds) + 2 for row in rows]
        if all(full):
            wins = hupai.is_win_batch(counts, jokers=jokers, melds=melds, forms=forms, joker_kinds=joker_kinds)
            assert wins.tolist() == [s == -1 for s in single]
