"""Adapters from a :class:`handgen.Case` to the public hupai calls, and canonical forms of results."""

from __future__ import annotations

from collections import Counter

import hupai
from handgen import Case


def core_shanten(case: Case) -> int:
    """``hupai.shanten`` of a case."""
    return hupai.shanten(
        case.array(), jokers=case.jokers, melds=case.melds, forms=case.forms, joker_kinds=case.joker_mask
    )


def core_is_win(case: Case) -> bool:
    """``hupai.is_win`` of a case."""
    return hupai.is_win(
        case.array(), jokers=case.jokers, melds=case.melds, forms=case.forms, joker_kinds=case.joker_mask
    )


def core_waits(case: Case) -> list[int]:
    """``hupai.waits`` of a case."""
    return hupai.waits(
        case.array(), jokers=case.jokers, melds=case.melds, forms=case.forms, joker_kinds=case.joker_mask
    )


def core_readings(case: Case, forms: int) -> list[tuple]:
    """``hupai.decompositions`` as canonical ``(form, sorted (type, tiles, jokers) groups)`` tuples, in order.

    Also checks the shape promises every group makes: tiles sorted, jokers a sub-multiset of tiles.
    """
    out = []
    for decomposition in hupai.decompositions(
        case.array(), jokers=case.jokers, melds=case.melds, forms=forms, joker_kinds=case.joker_mask
    ):
        groups = []
        for group in decomposition.groups:
            tiles, jokers = tuple(group.tiles), tuple(sorted(group.jokers))
            assert list(tiles) == sorted(tiles), f"group tiles not sorted: {group} in {case}"
            assert not Counter(jokers) - Counter(tiles), (
                f"group jokers not among its tiles: {group} in {case}"
            )
            groups.append((group.type, tiles, jokers))
        out.append((int(decomposition.form), tuple(sorted(groups))))
    return out


def first_failures(failures: list, limit: int = 8) -> str:
    """A readable head of a failure list for assertion messages."""
    head = "\n".join(str(item) for item in failures[:limit])
    return f"{len(failures)} mismatches, first ones:\n{head}"
