"""Reference decompositions: every distinct reading of a complete hand, found without the core's method.

Standard and seven-pairs readings come from a recursive split: the smallest natural tile left must sit in some
group, each other tile of that group is a natural tile (if held) or a joker (if jokers may stand for it);
jokers left at the end form groups of their own. Orphans and knitted readings come from their explicit
targets. A reading is ``(form, sorted groups)``, each group ``(type, tiles with stand-ins, kinds the jokers
stand for)``; readings are kept in a set, so two readings differ exactly when their group multisets differ.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from reference import (
    ALL_KINDS_MASK,
    KNITTED,
    MAX_DECOMPOSITION_JOKERS,
    NUM_KINDS,
    SEVEN_PAIRS,
    SEVEN_PAIRS_QUADS,
    STANDARD,
    TERMINAL_HONOR_KINDS,
    THIRTEEN_ORPHANS,
    Group,
    Reading,
    RefInvalid,
    applicable_forms,
    is_complete_size,
    knitted_targets,
    mask_bits,
)


def _kind_totals_ok(groups: Iterable[Group]) -> bool:
    totals = Counter(kind for group in groups for kind in group[1])
    return max(totals.values(), default=0) <= 4


def _designations(
    counts: list[int], first: int, others: tuple[int, ...], jokers_left: int, jokerable: Sequence[bool]
) -> Iterable[tuple[Counter, tuple[int, ...]]]:
    """Ways to fill a group holding natural ``first``: each other tile natural (if held) or a joker.

    Yields (naturals used, sorted joker stand-ins). Tiles below ``first`` can only be jokers, since ``first``
    is the smallest natural tile left.
    """
    for natural_flags in itertools.product((True, False), repeat=len(others)):
        used = Counter([first] + [t for t, nat in zip(others, natural_flags, strict=True) if nat])
        stand_ins = tuple(sorted(t for t, nat in zip(others, natural_flags, strict=True) if not nat))
        if any(t < first for t in used) or len(stand_ins) > jokers_left:
            continue
        if all(jokerable[t] for t in stand_ins) and all(counts[t] >= n for t, n in used.items()):
            yield used, stand_ins


def _standard_shapes(kind: int, melds_left: int, pair_left: int) -> list[tuple[str, tuple[int, ...]]]:
    shapes: list[tuple[str, tuple[int, ...]]] = []
    if pair_left:
        shapes.append(("pair", (kind, kind)))
    if melds_left:
        shapes.append(("pung", (kind, kind, kind)))
        if kind < 27:
            for start in (kind - 2, kind - 1, kind):
                if start >= 0 and start // 9 == kind // 9 and start % 9 <= 6:
                    shapes.append(("chow", (start, start + 1, start + 2)))
    return shapes


def _joker_only_groups(
    jokers: int, melds_left: int, pair_left: int, jokerable: Sequence[bool]
) -> list[tuple[Group, ...]]:
    """Every multiset of groups made of jokers alone that uses exactly ``jokers`` jokers."""
    if jokers != 3 * melds_left + 2 * pair_left:
        return []
    allowed = [k for k in range(NUM_KINDS) if jokerable[k]]
    pairs: list[tuple[Group, ...]] = [((("pair", (k, k), (k, k))),) for k in allowed] if pair_left else [()]
    meld_shapes: list[Group] = [("pung", (k, k, k), (k, k, k)) for k in allowed]
    meld_shapes += [
        ("chow", (k, k + 1, k + 2), (k, k + 1, k + 2))
        for k in allowed
        if k < 27 and k % 9 <= 6 and jokerable[k + 1] and jokerable[k + 2]
    ]
    return [
        pair + combo
        for pair in pairs
        for combo in itertools.combinations_with_replacement(meld_shapes, melds_left)
    ]


def _standard_readings(counts: list[int], jokers: int, jokerable: Sequence[bool], melds: int) -> set[tuple]:
    found: set[tuple] = set()

    def place(jokers_left: int, groups: list[Group], melds_left: int, pair_left: int) -> None:
        kind = next((k for k, c in enumerate(counts) if c), None)
        if kind is None:
            for extra in _joker_only_groups(jokers_left, melds_left, pair_left, jokerable):
                reading = groups + list(extra)
                if _kind_totals_ok(reading):
                    found.add(tuple(sorted(reading)))
            return
        for group_type, tiles in _standard_shapes(kind, melds_left, pair_left):
            others = list(tiles)
            others.remove(kind)
            for used, stand_ins in _designations(counts, kind, tuple(others), jokers_left, jokerable):
                for t, n in used.items():
                    counts[t] -= n
                is_pair = group_type == "pair"
                place(
                    jokers_left - len(stand_ins),
                    groups + [(group_type, tiles, stand_ins)],
                    melds_left - (not is_pair),
                    pair_left - is_pair,
                )
                for t, n in used.items():
                    counts[t] += n

    place(jokers, [], 4 - melds, 1)
    return found


def _pairs_readings(counts: list[int], jokers: int, jokerable: Sequence[bool], distinct: bool) -> set[tuple]:
    found: set[tuple] = set()

    def place(jokers_left: int, groups: list[Group]) -> None:
        kind = next((k for k, c in enumerate(counts) if c), None)
        if kind is None:
            pairs_left = 7 - len(groups)
            if jokers_left != 2 * pairs_left:
                return
            allowed = [k for k in range(NUM_KINDS) if jokerable[k]]
            for extra in itertools.combinations_with_replacement(allowed, pairs_left):
                reading = groups + [("pair", (k, k), (k, k)) for k in extra]
                pair_kinds = [g[1][0] for g in reading]
                if _kind_totals_ok(reading) and (not distinct or len(set(pair_kinds)) == 7):
                    found.add(tuple(sorted(reading)))
            return
        for used, stand_ins in _designations(counts, kind, (kind,), jokers_left, jokerable):
            counts[kind] -= used[kind]
            place(jokers_left - len(stand_ins), groups + [("pair", (kind, kind), stand_ins)])
            counts[kind] += used[kind]

    place(jokers, [])
    return found


def _target_reading(
    counts: Sequence[int],
    target: Sequence[int],
    jokers: int,
    jokerable: Sequence[bool],
    pair_kind: int | None,
) -> tuple | None:
    """The one reading of an orphans/knitted target (singles, maybe a pair); None if unfillable."""
    if any(c > t for c, t in zip(counts, target, strict=True)):
        return None
    missing = [k for k in range(NUM_KINDS) for _ in range(target[k] - counts[k])]
    if len(missing) != jokers or not all(jokerable[k] for k in missing):
        return None
    groups: list[Group] = []
    for kind in range(NUM_KINDS):
        if target[kind]:
            stand_ins = (kind,) * (target[kind] - counts[kind])
            groups.append(
                ("pair", (kind, kind), stand_ins) if kind == pair_kind else ("single", (kind,), stand_ins)
            )
    return tuple(sorted(groups))


def ref_decompositions(
    counts: Sequence[int],
    jokers: int = 0,
    melds: int = 0,
    forms: int = STANDARD,
    joker_mask: int = ALL_KINDS_MASK,
) -> set[Reading]:
    """All distinct readings ``(form, sorted groups)`` of a complete hand in the enabled structured forms.

    ``TERMINALS_HONORS`` is left out: the core returns one arbitrary reading there (see
    :func:`check_terminals_honors_reading`). Not complete (or 3n+1 size) -> empty set.
    """
    counts = [int(c) for c in counts]
    usable = applicable_forms(counts, jokers, melds, forms)
    if jokers > MAX_DECOMPOSITION_JOKERS:
        raise RefInvalid("at most 4 jokers for decompositions")
    if not is_complete_size(counts, jokers, melds):
        return set()
    jokerable = mask_bits(joker_mask)
    found: set[Reading] = set()
    for form in usable:
        if form == STANDARD:
            readings = _standard_readings(list(counts), jokers, jokerable, melds)
        elif form in (SEVEN_PAIRS, SEVEN_PAIRS_QUADS):
            readings = _pairs_readings(list(counts), jokers, jokerable, distinct=form == SEVEN_PAIRS)
        elif form == THIRTEEN_ORPHANS:
            readings = set()
            for pair_kind in TERMINAL_HONOR_KINDS:
                target = [int(k in TERMINAL_HONOR_KINDS) + (k == pair_kind) for k in range(NUM_KINDS)]
                readings.add(_target_reading(counts, target, jokers, jokerable, pair_kind))
            readings.discard(None)
        elif form == KNITTED:
            targets = knitted_targets()
            # Only a speed-up: keep the targets that hold every natural tile and miss exactly ``jokers``
            # tiles; _target_reading re-checks everything on the survivors.
            held = np.asarray(counts) > 0
            fits = ~(held & ~targets).any(axis=1) & ((targets & ~held).sum(axis=1) == jokers)
            readings = {
                _target_reading(counts, row.astype(int).tolist(), jokers, jokerable, None)
                for row in targets[fits]
            }
            readings.discard(None)
        else:
            continue
        found.update((form, reading) for reading in readings)
    return found


def check_terminals_honors_reading(
    counts: Sequence[int], jokers: int, joker_mask: int, groups: Sequence[Group]
) -> str | None:
    """Check the core's one terminals-honors reading: a complaint, or None if it is valid."""
    if len(groups) != 14 or any(g[0] != "single" or len(g[1]) != 1 for g in groups):
        return "not 14 singles"
    stand_ins = [k for g in groups for k in g[2]]
    if any(g[2] not in ((), g[1]) for g in groups):
        return "a single's joker differs from its tile"
    if len(stand_ins) != jokers or not all(joker_mask >> k & 1 for k in stand_ins):
        return "wrong number of jokers or a stand-in outside joker_kinds"
    tiles = Counter(g[1][0] for g in groups)
    naturals = Counter(g[1][0] for g in groups if not g[2])
    if any(naturals[k] != counts[k] for k in range(NUM_KINDS)):
        return "natural tiles do not match the hand"
    if any(k not in TERMINAL_HONOR_KINDS or n > 4 for k, n in tiles.items()):
        return "a tile is not a terminal/honor or a kind is used more than 4 times"
    return None
