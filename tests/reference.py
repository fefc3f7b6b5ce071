"""Slow, obviously-correct reference for hand analysis (DESIGN §3), independent of the C++ core.

Everything here follows the definitions literally:

* A *target* is a complete concealed hand (a multiset of kinds, at most four of a kind) in one form.
  For a hand with natural counts ``c``, ``j`` jokers and a joker mask, a target ``T`` misses ``T - c``
  (positive part); ``A`` of those missing tiles have kinds the jokers may stand for, ``D`` do not. Then
  ``shanten = min over T of [max(0, A - j) + D] - 1``.
* The minimum is taken over explicitly enumerated targets. The objective only grows with ``A`` and ``D``, so
  for the standard form each suit keeps its Pareto-minimal ``(A, D)`` pairs per (melds, pairs) it supplies,
  and the suits are combined; per-kind forms (pairs, terminals) use the same Pareto bookkeeping kind by kind.
* ``brute_is_win`` checks completeness the other way round: it tries every multiset of joker stand-ins and
  asks whether the resulting joker-free hand splits into groups. Tests use it to check the target-based
  reference.
* Decompositions live in ``reference_readings.py``; the per-suit table entries (``ref_suit_entry``) come from
  a DP over the lattice of suit patterns, checked against the explicit target list.

Forms are plain ints (the ``hupai.Forms`` values) so this module does not import hupai.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

import numpy as np

NUM_KINDS = 34
STANDARD, SEVEN_PAIRS, SEVEN_PAIRS_QUADS, THIRTEEN_ORPHANS, KNITTED, TERMINALS_HONORS = 1, 2, 4, 8, 16, 32
FORM_BITS = (STANDARD, SEVEN_PAIRS, SEVEN_PAIRS_QUADS, THIRTEEN_ORPHANS, KNITTED, TERMINALS_HONORS)
ALL_FORMS = 63
ALL_KINDS_MASK = (1 << NUM_KINDS) - 1
TERMINAL_HONOR_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
MAX_JOKERS = 8
MAX_DECOMPOSITION_JOKERS = 4

Group = tuple[str, tuple[int, ...], tuple[int, ...]]
Reading = tuple[int, tuple[Group, ...]]
Pareto = tuple[tuple[int, int], ...]


class RefInvalid(ValueError):
    """The reference's verdict that the input is not a valid hand: the core must raise ``InvalidHand``."""


# ----------------------------------------------------------------------------------------------------- inputs


def mask_bits(joker_mask: int) -> tuple[bool, ...]:
    """The 34-bit joker mask as one bool per kind."""
    return tuple(bool(joker_mask >> k & 1) for k in range(NUM_KINDS))


def kinds_to_mask(kinds: Iterable[int]) -> int:
    """A set of kinds as a 34-bit mask."""
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def applicable_forms(counts: Sequence[int], jokers: int, melds: int, forms: int) -> list[int]:
    """Validate a hand by the size rule and return the enabled forms that apply to it.

    Raises :class:`RefInvalid` for counts outside 0..4, jokers outside 0..8, melds outside 0..4, a size that
    is not ``3 * (4 - melds) + 1`` or ``+ 2``, or when no enabled form applies (special forms need
    ``melds == 0``).
    """
    if len(counts) != NUM_KINDS or any(not 0 <= c <= 4 for c in counts):
        raise RefInvalid("counts must be 34 values in 0..4")
    if not 0 <= jokers <= MAX_JOKERS or not 0 <= melds <= 4:
        raise RefInvalid("jokers must be 0..8 and melds 0..4")
    size = sum(counts) + jokers
    if size not in (3 * (4 - melds) + 1, 3 * (4 - melds) + 2):
        raise RefInvalid(f"{size} tiles with {melds} melds")
    enabled = [form for form in FORM_BITS if forms & form]
    usable = [form for form in enabled if form == STANDARD or melds == 0]
    if not usable:
        raise RefInvalid("no enabled form applies")
    return usable


def is_complete_size(counts: Sequence[int], jokers: int, melds: int) -> bool:
    """True for the 3n+2 (complete) size."""
    return sum(counts) + jokers == 3 * (4 - melds) + 2


# ----------------------------------------------------------------------------------------------- bookkeeping


def _cost(missing_jokerable: int, missing_other: int, jokers: int) -> int:
    """Draws still needed when ``jokers`` wild tiles fill what they may: ``max(0, A - j) + D``."""
    return max(0, missing_jokerable - jokers) + missing_other


def _pareto(points: Iterable[tuple[int, int]]) -> Pareto:
    """The Pareto-minimal ``(A, D)`` pairs; the objective never prefers a dominated pair."""
    best: dict[int, int] = {}
    for a, d in points:
        if d < best.get(a, 1 << 30):
            best[a] = d
    out = []
    lowest_d = 1 << 30
    for a in sorted(best):
        if best[a] < lowest_d:
            out.append((a, best[a]))
            lowest_d = best[a]
    return tuple(out)


def _split_missing(missing: int, jokerable: bool) -> tuple[int, int]:
    return (missing, 0) if jokerable else (0, missing)


# -------------------------------------------------------------------------------------------- standard form


@functools.cache
def group_targets(honors: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every target pattern one suit (9 kinds) or the honors (7 kinds) can supply to a standard hand.

    Returns ``(patterns int16[P, size], melds int[P], pairs int[P])``: each pattern is ``melds`` melds (pungs,
    plus chows in a suit) and ``pairs`` (0 or 1) pairs, at most four of a kind, for melds 0..4; no
    duplicates.
    """
    size = 7 if honors else 9
    shapes = [(k, k, k) for k in range(size)]
    if not honors:
        shapes += [(k, k + 1, k + 2) for k in range(size - 2)]
    seen: set[tuple[tuple[int, ...], int, int]] = set()
    for melds in range(5):
        for combo in itertools.combinations_with_replacement(shapes, melds):
            base = [0] * size
            for shape in combo:
                for kind in shape:
                    base[kind] += 1
            for pair in (None, *range(size)):
                pattern = list(base)
                if pair is not None:
                    pattern[pair] += 2
                if max(pattern, default=0) <= 4:
                    seen.add((tuple(pattern), melds, int(pair is not None)))
    ordered = sorted(seen)
    return (
        np.array([p for p, _, _ in ordered], dtype=np.int16).reshape(len(ordered), size),
        np.array([m for _, m, _ in ordered]),
        np.array([p for _, _, p in ordered]),
    )


@functools.lru_cache(maxsize=1 << 16)
def _part_pareto(part: tuple[int, ...], jokerable: tuple[bool, ...]) -> dict[tuple[int, int], Pareto]:
    """For one suit (or the honors): (melds, pairs) supplied -> Pareto-minimal (A, D) over its targets."""
    patterns, melds, pairs = group_targets(len(part) == 7)
    missing = np.maximum(patterns - np.array(part, dtype=np.int16), 0)
    jokerable_missing = missing[:, np.array(jokerable, dtype=bool)].sum(axis=1)
    other_missing = missing.sum(axis=1) - jokerable_missing
    # One key per (melds, pairs, A, D) so the few distinct combinations come back from one np.unique.
    keys = np.unique(((melds * 2 + pairs) * 32 + jokerable_missing) * 32 + other_missing)
    found: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key in keys.tolist():
        group, rest = divmod(key, 32 * 32)
        found.setdefault(divmod(group, 2), []).append(divmod(rest, 32))
    return {mp: _pareto(points) for mp, points in found.items()}


_PARTS = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))


def standard_pareto(counts: Sequence[int], jokerable: Sequence[bool], melds: int) -> Pareto:
    """Pareto-minimal (A, D) over all standard targets with ``4 - melds`` melds and one pair."""
    need = 4 - melds
    states: dict[tuple[int, int], Pareto] = {(0, 0): ((0, 0),)}
    for part in _PARTS:
        table = _part_pareto(tuple(counts[part]), tuple(jokerable[part]))
        merged: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for (m1, p1), left in states.items():
            for (m2, p2), right in table.items():
                if m1 + m2 <= need and p1 + p2 <= 1:
                    merged.setdefault((m1 + m2, p1 + p2), []).extend(
                        (a1 + a2, d1 + d2) for a1, d1 in left for a2, d2 in right
                    )
        states = {key: _pareto(points) for key, points in merged.items()}
    return states[(need, 1)]


# ---------------------------------------------------------------------------------------- per-kind forms


def per_kind_pareto(
    counts: Sequence[int],
    jokerable: Sequence[bool],
    choices: Sequence[Sequence[tuple[int, int]]],
    units_needed: int,
) -> Pareto:
    """Pareto (A, D) over targets chosen kind by kind.

    ``choices[k]`` lists ``(target count of kind k, units it supplies)``; a target supplies exactly
    ``units_needed`` units in total (pairs for seven pairs, tiles for terminals-honors, ...).
    """
    states: dict[int, Pareto] = {0: ((0, 0),)}
    for kind in range(NUM_KINDS):
        merged: dict[int, list[tuple[int, int]]] = {}
        for units, points in states.items():
            for target, supplied in choices[kind]:
                if units + supplied > units_needed:
                    continue
                add_a, add_d = _split_missing(max(0, target - counts[kind]), jokerable[kind])
                merged.setdefault(units + supplied, []).extend((a + add_a, d + add_d) for a, d in points)
        states = {units: _pareto(points) for units, points in merged.items()}
    return states.get(units_needed, ())


_NO_TILES = ((0, 0),)
SEVEN_PAIRS_CHOICES = [((0, 0), (2, 1))] * NUM_KINDS
SEVEN_PAIRS_QUADS_CHOICES = [((0, 0), (2, 1), (4, 2))] * NUM_KINDS
TERMINALS_HONORS_CHOICES = [
    tuple((t, t) for t in range(5)) if k in TERMINAL_HONOR_KINDS else _NO_TILES for k in range(NUM_KINDS)
]
# Thirteen orphans: every terminal/honor once, exactly one of them twice (the single "unit").
THIRTEEN_ORPHANS_CHOICES = [
    ((1, 0), (2, 1)) if k in TERMINAL_HONOR_KINDS else _NO_TILES for k in range(NUM_KINDS)
]


# ----------------------------------------------------------------------------------------------- knitted


@functools.cache
def knitted_suit_subsets() -> tuple[tuple[int, ...], ...]:
    """Subsets of a suit's numbers 0..8 whose members differ pairwise by 3 or more (by brute force)."""
    return tuple(
        subset
        for size in range(10)
        for subset in itertools.combinations(range(9), size)
        if all(b - a >= 3 for a, b in itertools.combinations(subset, 2))
    )


@functools.cache
def knitted_targets() -> np.ndarray:
    """Every knitted target as a bool[M, 34] row: 14 distinct kinds, suits knitted, honors distinct."""
    rows = []
    for subsets in itertools.product(knitted_suit_subsets(), repeat=3):
        suited = [9 * suit + n for suit, subset in enumerate(subsets) for n in subset]
        honors_needed = 14 - len(suited)
        if not 0 <= honors_needed <= 7:
            continue
        for honors in itertools.combinations(range(27, 34), honors_needed):
            row = np.zeros(NUM_KINDS, dtype=bool)
            row[suited + list(honors)] = True
            rows.append(row)
    return np.array(rows)


def knitted_pareto(counts: Sequence[int], jokerable: Sequence[bool]) -> Pareto:
    """Pareto (A, D) over all knitted targets."""
    targets = knitted_targets()
    missing = targets & (np.asarray(counts) == 0)
    a = missing[:, np.asarray(jokerable, dtype=bool)].sum(axis=1)
    d = missing.sum(axis=1) - a
    return _pareto(set(zip(a.tolist(), d.tolist(), strict=True)))


# ------------------------------------------------------------------------------------------- shanten / win


def form_pareto(form: int, counts: Sequence[int], jokerable: Sequence[bool], melds: int) -> Pareto:
    """Pareto (A, D) over the targets of one form."""
    if form == STANDARD:
        return standard_pareto(counts, jokerable, melds)
    if form == SEVEN_PAIRS:
        return per_kind_pareto(counts, jokerable, SEVEN_PAIRS_CHOICES, 7)
    if form == SEVEN_PAIRS_QUADS:
        return per_kind_pareto(counts, jokerable, SEVEN_PAIRS_QUADS_CHOICES, 7)
    if form == THIRTEEN_ORPHANS:
        return per_kind_pareto(counts, jokerable, THIRTEEN_ORPHANS_CHOICES, 1)
    if form == TERMINALS_HONORS:
        return per_kind_pareto(counts, jokerable, TERMINALS_HONORS_CHOICES, 14)
    if form == KNITTED:
        return knitted_pareto(counts, jokerable)
    raise ValueError(f"unknown form {form}")


def ref_shanten(
    counts: Sequence[int],
    jokers: int = 0,
    melds: int = 0,
    forms: int = STANDARD,
    joker_mask: int = ALL_KINDS_MASK,
) -> int:
    """``min over enabled forms and their targets of [max(0, A - jokers) + D] - 1``."""
    counts = [int(c) for c in counts]
    usable = applicable_forms(counts, jokers, melds, forms)
    jokerable = mask_bits(joker_mask)
    return (
        min(_cost(a, d, jokers) for form in usable for a, d in form_pareto(form, counts, jokerable, melds))
        - 1
    )


def ref_is_win(
    counts: Sequence[int],
    jokers: int = 0,
    melds: int = 0,
    forms: int = STANDARD,
    joker_mask: int = ALL_KINDS_MASK,
) -> bool:
    """Complete iff shanten is -1."""
    return ref_shanten(counts, jokers, melds, forms, joker_mask) == -1


def ref_waits(
    counts: Sequence[int],
    jokers: int = 0,
    melds: int = 0,
    forms: int = STANDARD,
    joker_mask: int = ALL_KINDS_MASK,
) -> list[int]:
    """Kinds ``k`` the hand holds fewer than four of such that the hand plus ``k`` is complete."""
    counts = [int(c) for c in counts]
    applicable_forms(counts, jokers, melds, forms)
    out = []
    for kind in range(NUM_KINDS):
        if counts[kind] < 4:
            counts[kind] += 1
            if ref_is_win(counts, jokers, melds, forms, joker_mask):
                out.append(kind)
            counts[kind] -= 1
    return out


# ------------------------------------------------------------------------------ brute force (no targets)


@functools.cache
def _splits_into(counts: tuple[int, ...], melds: int, pairs: int) -> bool:
    """Joker-free: do the tiles split into exactly ``melds`` melds and ``pairs`` pairs?"""
    kind = next((k for k, c in enumerate(counts) if c), None)
    if kind is None:
        return melds == 0 and pairs == 0
    rest = list(counts)
    if pairs and counts[kind] >= 2:
        rest[kind] -= 2
        if _splits_into(tuple(rest), melds, pairs - 1):
            return True
        rest[kind] += 2
    if melds and counts[kind] >= 3:
        rest[kind] -= 3
        if _splits_into(tuple(rest), melds - 1, pairs):
            return True
        rest[kind] += 3
    if melds and kind < 27 and kind % 9 <= 6 and counts[kind + 1] and counts[kind + 2]:
        for k in (kind, kind + 1, kind + 2):
            rest[k] -= 1
        if _splits_into(tuple(rest), melds - 1, pairs):
            return True
    return False


def natural_complete(counts: tuple[int, ...], melds: int, form: int) -> bool:
    """Joker-free completeness of a 3n+2 hand in one form, checked straight from the form's definition."""
    if max(counts) > 4 or sum(counts) != 3 * (4 - melds) + 2:
        return False
    if form == STANDARD:
        return _splits_into(counts, 4 - melds, 1)
    if form == SEVEN_PAIRS:
        return all(c in (0, 2) for c in counts)
    if form == SEVEN_PAIRS_QUADS:
        return all(c % 2 == 0 for c in counts)
    outside = any(counts[k] for k in range(NUM_KINDS) if k not in TERMINAL_HONOR_KINDS)
    if form == THIRTEEN_ORPHANS:
        return not outside and all(counts[k] >= 1 for k in TERMINAL_HONOR_KINDS)
    if form == TERMINALS_HONORS:
        return not outside
    if form == KNITTED:
        if max(counts) > 1:
            return False
        for suit in range(3):
            numbers = [n for n in range(9) if counts[9 * suit + n]]
            if any(b - a < 3 for a, b in itertools.combinations(numbers, 2)):
                return False
        return True
    raise ValueError(f"unknown form {form}")


def brute_is_win(
    counts: Sequence[int],
    jokers: int = 0,
    melds: int = 0,
    forms: int = STANDARD,
    joker_mask: int = ALL_KINDS_MASK,
) -> bool:
    """Try every multiset of stand-ins for the jokers and test the joker-free hand (slow for jokers >= 3)."""
    counts = [int(c) for c in counts]
    usable = applicable_forms(counts, jokers, melds, forms)
    if not is_complete_size(counts, jokers, melds):
        return False
    allowed = [k for k, ok in enumerate(mask_bits(joker_mask)) if ok]
    for stand_ins in itertools.combinations_with_replacement(allowed, jokers):
        full = list(counts)
        for kind in stand_ins:
            full[kind] += 1
        if max(full) <= 4 and any(natural_complete(tuple(full), melds, form) for form in usable):
            return True
    return False


# -------------------------------------------------------------------------------- per-suit table entries


def _lattice_table(size: int, honors: bool) -> np.ndarray:
    """Min missing tiles, int8[5**size, 10], for every pattern (counts 0..4 on ``size`` kinds) and (m, p).

    With S = the sub-patterns of targets (m melds + p pairs),
    ``missing(c) = 3m + 2p - max{|s| : s <= c, s in S}``, because the tiles of ``c`` a best target keeps form
    such an ``s``. Both "some target lies above" and "best sub-pattern below" are running max/or along each
    axis of the 5x5x...x5 lattice.
    """
    patterns, melds, pairs = group_targets(honors)
    shape = (5,) * size
    weights = 5 ** np.arange(size)
    # |c| for every lattice point (axis k = count of kind k).
    sums = np.indices(shape, dtype=np.int8).sum(axis=0, dtype=np.int16)
    table = np.zeros((5**size, 10), dtype=np.int8)
    for m in range(5):
        for p in range(2):
            rows = patterns[(melds == m) & (pairs == p)]
            in_targets = np.zeros(5**size, dtype=bool)
            # Lattice index with axis k = count of kind k: C order puts kind 0 on the slowest axis.
            in_targets[(rows * weights[::-1]).sum(axis=1)] = True
            below_target = in_targets.reshape(shape)
            for axis in range(size):  # "exists T >= c": reverse running OR along each axis
                below_target = np.flip(np.logical_or.accumulate(np.flip(below_target, axis), axis=axis), axis)
            best_kept = np.where(below_target, sums, -1)
            for axis in range(size):  # "max |s| over s <= c": running max along each axis
                best_kept = np.maximum.accumulate(best_kept, axis=axis)
            table[:, m + 5 * p] = (3 * m + 2 * p - best_kept).reshape(-1)
    return table


@functools.cache
def suit_lattice_table() -> np.ndarray:
    """:func:`_lattice_table` for a suit; row index = sum(c[k] * 5 ** (8 - k))."""
    return _lattice_table(9, honors=False)


@functools.cache
def honor_lattice_table() -> np.ndarray:
    """:func:`_lattice_table` for the honors; row index = sum(c[k] * 5 ** (6 - k))."""
    return _lattice_table(7, honors=True)


def lattice_index(pattern: Sequence[int]) -> int:
    """Row of a pattern in the lattice tables (kind 0 is the most significant base-5 digit)."""
    index = 0
    for count in pattern:
        index = index * 5 + int(count)
    return index


def ref_suit_entry(counts9: Sequence[int]) -> list[int]:
    """Min tiles missing for m melds + p pairs in one suit, at index ``m + 5 * p`` (lattice DP)."""
    return suit_lattice_table()[lattice_index(counts9)].tolist()


def ref_honor_entry(counts7: Sequence[int]) -> list[int]:
    """The same for the seven honors (pungs and pairs only)."""
    return honor_lattice_table()[lattice_index(counts7)].tolist()


def slow_part_entry(pattern: Sequence[int]) -> list[int]:
    """The entry straight from the target list (min over targets of missing tiles): checks the lattice DP."""
    patterns, melds, pairs = group_targets(len(pattern) == 7)
    missing = np.maximum(patterns - np.array(pattern, dtype=np.int16), 0).sum(axis=1)
    return [int(missing[(melds == m) & (pairs == p)].min()) for p in range(2) for m in range(5)]
