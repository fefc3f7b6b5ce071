"""Yunxiao tiles in a hand: the gold (金), the 白板 stand-in, the fifth-copy rule (YX-6, YX-7, YX-8, YX-21).

Conventions used by every Yunxiao module:

- **Concealed tiles are physical kinds.** A gold is listed as kind ``G`` (the gold kind), a 白板 as ``5z``
  (31). The engine never pre-converts; :func:`split_golds` turns the physical list into natural counts plus a
  number of golds.
- **Declared melds are recorded in effective kinds.** With ``G != 5z`` a 白板 in a meld is recorded as ``G``
  (a chow of ``4m 5z 6m`` under ``G = 5m`` is the meld ``456m``); a 白板 pung or kong given physically
  (``[555z]``) is read as ``G`` too. Golds never appear in melds (YX-14, YX-21).
- The **effective kind** of a tile (YX-7) is its kind, except a 白板 when ``G != 5z``, which is ``G``. The
  natural tiles of kind ``G`` are the golds; :func:`is_gold` tells them apart from 白板 playing as ``G``.

This module also holds an exact group search in pure Python (:func:`fits_groups`, :func:`fits_pairs`). The
core bounds each kind at four *within the concealed part*; the fifth-copy rule also counts the player's own
declared melds (YX-8), which the core does not see. The pattern module asks the core first (fast, and exact
when nothing is declared) and this search only when melds are declared or for the 游 shape (a floating gold,
no pair). Hands are at most 14 tiles with at most four golds, so the memoised search stays around 0.1 ms.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ...errors import InvalidHand
from ...hand import Meld
from ...tiles import NUM_KINDS, TERMINALS_HONORS, format_tiles, kind_name

__all__ = [
    "WHITE", "YunxiaoHand", "is_gold", "effective_kind", "split_golds", "chow_forbidden_discards",
    "meld_kind_counts", "gold_room", "fits_groups", "fits_pairs", "is_terminal_or_honor",
]

#: 白板 (5z): plays as the gold kind when the gold is not 白板 itself (YX-7).
WHITE = 31
_TERMINALS_HONORS = frozenset(TERMINALS_HONORS)


def is_gold(kind: int, gold: int) -> bool:
    """YX-6: a natural tile of the gold kind is a gold (wild). A 白板 playing as ``G`` is not a gold."""
    return kind == gold


def effective_kind(kind: int, gold: int) -> int:
    """YX-7: the kind a tile plays as. 白板 plays as ``G`` when ``G != 5z``; every other kind is itself.

    Use it for claims, 过张 (YX-16), 漏胡 (YX-17) and meld recording. A gold's effective kind is ``G`` too:
    test :func:`is_gold` first, since a gold is wild and is never claimed.
    """
    return gold if kind == WHITE and gold != WHITE else kind


def chow_forbidden_discards(claimed: int, used: tuple[int, int], gold: int) -> frozenset[int]:
    """YX-16 过张: physical kinds the player may not discard in the turn of a chow.

    ``claimed`` is the chowed tile's effective kind, ``used`` the effective kinds of the two tiles it was
    chowed with. Forbidden: the chowed kind and, when ``used`` are consecutive, the other end that completes
    them (34m chowing 5m also forbids 2m; a closed 46m forbids only 5m). A 白板 playing as a forbidden ``G``
    is forbidden too (YX-7); golds may always be discarded. The engine lifts the restriction when nothing is
    left.
    """
    low, high = sorted(used)
    forbidden = {claimed}
    if high == low + 1:
        suit_start = low - low % 9
        for other in (low - 1, high + 1):
            if other != claimed and suit_start <= other <= suit_start + 8:
                forbidden.add(other)
    return frozenset(k for k in range(NUM_KINDS)
                     if effective_kind(k, gold) in forbidden and not is_gold(k, gold))


def split_golds(kinds: Iterable[int], gold: int, *, plain_white: bool = False) -> tuple[tuple[int, ...], int]:
    """Split physical kinds into (natural counts by effective kind, number of golds).

    ``plain_white=True`` keeps 白板 as 白板 (``5z``), as the 幺九 and 不搭 checks require (YX-7 exception).
    """
    counts = [0] * NUM_KINDS
    golds = 0
    for kind in kinds:
        if kind == gold:
            golds += 1
        else:
            counts[kind if plain_white else effective_kind(kind, gold)] += 1
    return tuple(counts), golds


def meld_kind_counts(melds: Iterable[Meld]) -> tuple[int, ...]:
    """How many tiles of each (effective) kind the player's own declared melds hold (YX-8)."""
    counts = [0] * NUM_KINDS
    for meld in melds:
        for kind in meld.tiles:
            counts[kind] += 1
    return tuple(counts)


def gold_room(counts: Sequence[int], melds: Iterable[Meld] = (), allowed: Iterable[int] | None = None
              ) -> tuple[int, ...]:
    """YX-8: how many golds may stand for each kind without a fifth copy in the player's hand.

    A kind's room is ``4`` minus its natural concealed tiles minus its tiles in the player's own melds; kinds
    outside ``allowed`` (when given) get no room at all.
    """
    in_melds = meld_kind_counts(melds)
    permitted = set(range(NUM_KINDS)) if allowed is None else set(allowed)
    return tuple(max(0, 4 - counts[k] - in_melds[k]) if k in permitted else 0 for k in range(NUM_KINDS))


@dataclass(frozen=True)
class YunxiaoHand:
    """A player's tiles under a given gold: ``concealed`` physical kinds, ``melds`` in effective kinds.

    Only physical validity is checked here (kinds in range, at most four of a kind); whether the hand is
    complete is the pattern module's question.
    """

    concealed: tuple[int, ...]
    gold: int
    melds: tuple[Meld, ...] = ()
    counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    golds: int = field(init=False, repr=False, compare=False)
    plain_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.gold, int) or isinstance(self.gold, bool) or not 0 <= self.gold < NUM_KINDS:
            raise InvalidHand(f"the gold kind must be a kind in 0..33, got {self.gold!r}")
        concealed = tuple(self.concealed)
        for pos, kind in enumerate(concealed):
            if isinstance(kind, bool) or not isinstance(kind, int) or not 0 <= kind < NUM_KINDS:
                raise InvalidHand(f"concealed tile {pos} is {kind!r}, not a kind in 0..33")
        physical = [0] * NUM_KINDS
        for kind in concealed:
            physical[kind] += 1
        for kind, count in enumerate(physical):
            if count > 4:
                raise InvalidHand(f"{count} tiles of {kind_name(kind)} in {format_tiles(list(concealed))}: "
                                  f"there are only four")
        object.__setattr__(self, "concealed", concealed)
        # A 白板 pung or kong recorded physically ([555z] under G != 5z) is read as the kind it plays as.
        object.__setattr__(self, "melds", tuple(
            replace(meld, tiles=tuple(effective_kind(k, self.gold) for k in meld.tiles))
            if WHITE in meld.tiles and self.gold != WHITE else meld for meld in self.melds))
        counts, golds = split_golds(concealed, self.gold)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "golds", golds)
        # 白板 as plain 白板: the 幺九 / 不搭 view (YX-7 exception).
        object.__setattr__(self, "plain_counts", split_golds(concealed, self.gold, plain_white=True)[0])

    @classmethod
    def of(cls, concealed: Iterable[int], gold: int, melds: Iterable[Meld] = ()) -> YunxiaoHand:
        """Build from any iterable of physical kinds."""
        return cls(tuple(concealed), gold, tuple(melds))

    def plus(self, kind: int) -> YunxiaoHand:
        """The same hand with one more physical tile (waits try every kind, so this skips re-validation)."""
        if not 0 <= kind < NUM_KINDS or self.concealed.count(kind) >= 4:
            raise InvalidHand(f"cannot add {kind!r} to {format_tiles(list(self.concealed))}")
        grown = object.__new__(YunxiaoHand)
        object.__setattr__(grown, "concealed", self.concealed + (kind,))
        object.__setattr__(grown, "gold", self.gold)
        object.__setattr__(grown, "melds", self.melds)
        counts, plain, golds = list(self.counts), list(self.plain_counts), self.golds
        if kind == self.gold:
            golds += 1
        else:
            counts[effective_kind(kind, self.gold)] += 1
            plain[kind] += 1
        object.__setattr__(grown, "counts", tuple(counts))
        object.__setattr__(grown, "plain_counts", tuple(plain))
        object.__setattr__(grown, "golds", golds)
        return grown

    @property
    def size(self) -> int:
        """Concealed tiles, golds included."""
        return len(self.concealed)

    @property
    def sets_needed(self) -> int:
        """Melds the concealed part must still form: 4 minus declared melds (暗杠 included)."""
        return 4 - len(self.melds)

    @property
    def exposed_melds(self) -> int:
        """Declared melds other than 暗杠: the 铺 counted by YX-40 (吃, 碰, 明杠, 补杠)."""
        return sum(1 for meld in self.melds if not meld.concealed)

    def joker_kinds(self, allowed: Iterable[int] | None = None) -> tuple[int, ...]:
        """Kinds a gold may stand for in the standard and pairs forms, within ``allowed`` when given.

        With ``G != 5z`` no tile plays as 白板 (every 白板 is ``G``), so a gold never stands for ``5z`` there.
        """
        permitted = range(NUM_KINDS) if allowed is None else set(allowed)
        return tuple(k for k in range(NUM_KINDS)
                     if k in permitted and not (k == WHITE and self.gold != WHITE))

    def room(self, allowed: Iterable[int] | None = None) -> tuple[int, ...]:
        """YX-8 room per kind for this hand's golds (see :func:`gold_room`)."""
        return gold_room(self.counts, self.melds, self.joker_kinds(allowed))

    def core_counts(self) -> np.ndarray:
        """Natural counts by effective kind as the core's ``uint8[34]`` (golds go in its ``jokers``)."""
        return np.array(self.counts, dtype=np.uint8)

    def __str__(self) -> str:
        melds = " ".join(str(meld) for meld in self.melds)
        text = format_tiles(list(self.concealed)) if self.concealed else "-"
        return f"{text} {melds} (G={kind_name(self.gold)})".replace("  ", " ")


def is_terminal_or_honor(kind: int) -> bool:
    """1/9 of a suit, or an honor (YX-34)."""
    return kind in _TERMINALS_HONORS


# --- exact group search -------------------------------------------------------------------------------------

def fits_groups(counts: Sequence[int], golds: int, sets: int, pairs: int, room: Sequence[int]) -> bool:
    """Can the natural ``counts`` plus ``golds`` wild tiles form exactly ``sets`` melds and ``pairs`` pairs?

    Melds are pungs and chows (suited, consecutive). A gold standing for kind ``k`` uses one unit of
    ``room[k]`` (YX-8 room, 0 for kinds a gold may not stand for here). Every tile must be used.
    """
    if sum(counts) + golds != 3 * sets + 2 * pairs or golds < 0:
        return False
    memo: dict[tuple[tuple[int, ...], int, int, int, tuple[int, ...]], bool] = {}
    return _fit(tuple(counts), golds, sets, pairs, tuple(room), memo)


def _take(vector: tuple[int, ...], changes: dict[int, int]) -> tuple[int, ...]:
    as_list = list(vector)
    for kind, amount in changes.items():
        as_list[kind] -= amount
    return tuple(as_list)


def _fit(counts: tuple[int, ...], golds: int, sets: int, pairs: int, room: tuple[int, ...],
         memo: dict[tuple[tuple[int, ...], int, int, int, tuple[int, ...]], bool]) -> bool:
    first = next((k for k in range(NUM_KINDS) if counts[k]), None)
    if first is None:
        return _golds_alone(golds, sets, pairs, room)
    key = (counts, golds, sets, pairs, room)
    if key in memo:
        return memo[key]
    result = False
    # The lowest natural kind must sit in some group; try every group that can hold it.
    options: list[tuple[dict[int, int], dict[int, int], int, int]] = []  # (naturals, golds as, sets, pairs)
    have = counts[first]
    if pairs:
        natural = min(have, 2)
        options.append(({first: natural}, {first: 2 - natural} if natural < 2 else {}, 0, 1))
    if sets:
        natural = min(have, 3)
        options.append(({first: natural}, {first: 3 - natural} if natural < 3 else {}, 1, 0))
        if first < 27:
            suit_start = first - first % 9
            for start in (first - 2, first - 1, first):
                if start < suit_start or start + 2 > suit_start + 8:
                    continue
                naturals: dict[int, int] = {}
                wild: dict[int, int] = {}
                for kind in (start, start + 1, start + 2):
                    # Kinds below `first` hold no natural tile any more; above it, a natural beats a gold
                    # (swapping a gold and a natural of the same kind between groups changes nothing).
                    if kind >= first and counts[kind]:
                        naturals[kind] = 1
                    else:
                        wild[kind] = 1
                options.append((naturals, wild, 1, 0))
    for naturals, wild, used_sets, used_pairs in options:
        needed = sum(wild.values())
        if needed > golds or any(room[k] < n for k, n in wild.items()):
            continue
        if _fit(_take(counts, naturals), golds - needed, sets - used_sets, pairs - used_pairs,
                _take(room, wild), memo):
            result = True
            break
    memo[key] = result
    return result


def _golds_alone(golds: int, sets: int, pairs: int, room: tuple[int, ...]) -> bool:
    """Golds left over form whole groups by themselves; each group still needs kinds with YX-8 room."""
    if golds != 3 * sets + 2 * pairs:
        return False
    if pairs:
        for kind in range(NUM_KINDS):
            if room[kind] >= 2 and _golds_alone(golds - 2, sets, pairs - 1, _take(room, {kind: 2})):
                return True
        return False
    if sets:
        for kind in range(NUM_KINDS):
            if room[kind] >= 3 and _golds_alone(golds - 3, sets - 1, 0, _take(room, {kind: 3})):
                return True
            if kind < 27 and kind % 9 <= 6 and all(room[kind + i] >= 1 for i in range(3)) and \
                    _golds_alone(golds - 3, sets - 1, 0, _take(room, {kind: 1, kind + 1: 1, kind + 2: 1})):
                return True
        return False
    return True


def fits_pairs(counts: Sequence[int], golds: int, pairs: int, room: Sequence[int]) -> bool:
    """Can ``counts`` plus ``golds`` form exactly ``pairs`` pairs, four of a kind counting as two (YX-33)?

    A gold pairs with any natural tile (using a unit of that kind's room) or with another gold.
    """
    if sum(counts) + golds != 2 * pairs:
        return False
    singles = [k for k in range(NUM_KINDS) if counts[k] % 2]
    if len(singles) > golds or any(room[k] < 1 for k in singles):
        return False
    spare = list(room)
    for kind in singles:
        spare[kind] -= 1
    gold_pairs = (golds - len(singles)) // 2
    return sum(r // 2 for r in spare) >= gold_pairs
