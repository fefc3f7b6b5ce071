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

Golds are wild only within YX-8 room: the core's table lookups bound each kind at four *within the concealed
part*, while the fifth-copy rule also counts the player's own declared melds. :meth:`YunxiaoHand.room` gives the
per-kind room, and the pattern module asks the core's exact search :func:`hupai.analysis.fits_with_jokers` with it
when golds and declared melds meet, or for the 游 shape (a floating gold, no pair).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from operator import sub

import numpy as np

from ... import _core
from ...analysis import Forms
from ...errors import InvalidHand
from ...hand import Meld
from ...tiles import NUM_KINDS, TERMINALS_HONORS, counts_to_kinds, format_tiles, kind_name

__all__ = [
    "WHITE", "YunxiaoHand", "is_gold", "effective_kind", "split_golds", "chow_forbidden_discards",
    "meld_kind_counts", "gold_room", "is_terminal_or_honor", "kinds_playing_as", "counts_to_kinds", "core_waits",
    "natural_counts",
]

#: 白板 (5z): plays as the gold kind when the gold is not 白板 itself (YX-7).
WHITE = 31
_TERMINALS_HONORS = frozenset(TERMINALS_HONORS)
_KINDS = tuple(range(NUM_KINDS))
_KINDS_BUT_WHITE = tuple(k for k in _KINDS if k != WHITE)
_KIND_SET = frozenset(_KINDS)
_INT_TYPE = frozenset({int})
_FOURS = (4,) * NUM_KINDS
_ALL_KINDS_MASK = (1 << NUM_KINDS) - 1  # the core's joker_kinds: a joker may stand for any kind


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
    return frozenset(kinds_playing_as(forbidden, gold) - {gold})


def kinds_playing_as(effective: Iterable[int], gold: int) -> set[int]:
    """The physical kinds whose effective kind (YX-7) is among ``effective``: a 白板 when ``G`` is there and
    ``G != 5z`` (no tile then plays as 5z); a gold too when ``G`` is (test :func:`is_gold` to leave it out)."""
    wanted = set(effective) & _KIND_SET
    if gold == WHITE:
        return wanted
    physical = wanted - {WHITE}
    if gold in wanted:
        physical.add(WHITE)
    return physical


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
    room = list(map(sub, _FOURS, counts))
    for meld in melds:
        for kind in meld.tiles:
            room[kind] -= 1
    if allowed is not None:
        for kind in _KIND_SET.difference(allowed):
            room[kind] = 0
    return tuple(room) if min(room) >= 0 else tuple(max(0, left) for left in room)


def _check_gold(gold: int) -> None:
    if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold < NUM_KINDS:
        raise InvalidHand(f"the gold kind must be a kind in 0..33, got {gold!r}")


def _checked_counts(concealed: tuple[int, ...]) -> list[int]:
    """Physical counts of ``concealed``; :class:`InvalidHand` for a tile that is not a kind or a fifth copy."""
    # The engine's tiles are always exact ints in range: two C-level checks clear them, and only a hand that
    # fails them is walked tile by tile for the culprit (an int subclass other than bool is still a kind).
    if not (set(map(type, concealed)) <= _INT_TYPE and _KIND_SET.issuperset(concealed)):
        for pos, kind in enumerate(concealed):
            if isinstance(kind, bool) or not isinstance(kind, int) or not 0 <= kind < NUM_KINDS:
                raise InvalidHand(f"concealed tile {pos} is {kind!r}, not a kind in 0..33")
    physical = [0] * NUM_KINDS
    for kind in concealed:
        physical[kind] += 1
    if max(physical) > 4:
        kind = next(k for k, count in enumerate(physical) if count > 4)
        raise InvalidHand(f"{physical[kind]} tiles of {kind_name(kind)} in {format_tiles(list(concealed))}: "
                          f"there are only four")
    return physical


def _split_counts(physical: Sequence[int], gold: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Valid physical counts as (natural counts by effective kind, golds, plain counts): :func:`split_golds`
    read off a counts vector rather than tile by tile (the natural tiles of kind ``G`` are the golds, YX-6)."""
    plain = list(physical)
    golds = plain[gold]
    plain[gold] = 0
    counts = list(plain)
    if gold != WHITE:  # YX-7: 白板 plays as G, whose natural tiles were all golds
        counts[gold] = counts[WHITE]
        counts[WHITE] = 0
    return tuple(counts), golds, tuple(plain)


def natural_counts(physical: bytes, gold: int) -> tuple[bytes, int]:
    """:func:`_split_counts`'s first two answers for the core, as bytes (the core reads any 34-byte buffer): the
    natural counts by effective kind (白板 in G's place, YX-7) and the number of golds. No hand object is built:
    the rule object asks this of every waiting hand, and most of them are not ready."""
    counts = bytearray(physical)
    golds = counts[gold]
    if gold != WHITE:
        counts[gold] = counts[WHITE]
        counts[WHITE] = 0
    else:
        counts[gold] = 0
    return bytes(counts), golds


def _effective_melds(melds: Iterable[Meld], gold: int) -> tuple[Meld, ...]:
    """A 白板 pung or kong recorded physically ([555z] under G != 5z) is read as the kind it plays as."""
    melds = tuple(melds)
    if not melds:
        return melds
    return tuple(replace(meld, tiles=tuple(effective_kind(k, gold) for k in meld.tiles))
                 if WHITE in meld.tiles and gold != WHITE else meld for meld in melds)


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
        _check_gold(self.gold)
        concealed = tuple(self.concealed)
        counts, golds, plain = _split_counts(_checked_counts(concealed), self.gold)
        # plain_counts: 白板 as plain 白板, the 幺九 / 不搭 view (YX-7 exception).
        self._fill(concealed, self.gold, _effective_melds(self.melds, self.gold), counts, golds, plain)

    @classmethod
    def from_counts(cls, physical: bytes, gold: int, melds: Iterable[Meld] = ()) -> YunxiaoHand:
        """Build from the 34 physical counts a table keeps for a hand (``bytes``; concealed kinds ascending).

        The rule object asks about table hands many times; their counts are checked as a whole here, without
        the tile-by-tile walk a list of kinds needs.
        """
        _check_gold(gold)
        physical = bytes(physical)
        if len(physical) != NUM_KINDS or max(physical) > 4:
            raise InvalidHand(f"a hand is {NUM_KINDS} counts of at most four, got {list(physical)}")
        hand = object.__new__(cls)
        hand._fill(counts_to_kinds(physical), gold, _effective_melds(melds, gold), *_split_counts(physical, gold))
        return hand

    def _fill(self, concealed: tuple[int, ...], gold: int, melds: tuple[Meld, ...], counts: tuple[int, ...],
              golds: int, plain_counts: tuple[int, ...]) -> None:
        # The dataclass is frozen: set the fields in the instance dict, as object.__setattr__ would one by one.
        self.__dict__.update(concealed=concealed, gold=gold, melds=melds, counts=counts, golds=golds,
                             plain_counts=plain_counts)

    def _derived(self, concealed: tuple[int, ...], counts: list[int], golds: int, plain: list[int]
                 ) -> YunxiaoHand:
        """A hand of this gold and melds whose tiles are known valid: waits and the 游 search build many hands
        from one checked hand, so they skip :meth:`__post_init__`."""
        hand = object.__new__(YunxiaoHand)
        hand._fill(concealed, self.gold, self.melds, tuple(counts), golds, tuple(plain))
        return hand

    @classmethod
    def of(cls, concealed: Iterable[int], gold: int, melds: Iterable[Meld] = ()) -> YunxiaoHand:
        """Build from any iterable of physical kinds."""
        return cls(tuple(concealed), gold, tuple(melds))

    def plus(self, kind: int) -> YunxiaoHand:
        """The same hand with one more physical tile (waits try every kind, so this skips re-validation)."""
        if not 0 <= kind < NUM_KINDS or self.concealed.count(kind) >= 4:
            raise InvalidHand(f"cannot add {kind!r} to {format_tiles(list(self.concealed))}")
        counts, plain, golds = list(self.counts), list(self.plain_counts), self.golds
        if kind == self.gold:
            golds += 1
        else:
            counts[effective_kind(kind, self.gold)] += 1
            plain[kind] += 1
        return self._derived(self.concealed + (kind,), counts, golds, plain)

    def minus(self, kind: int) -> YunxiaoHand:
        """The same hand without one physical tile of ``kind`` (the 游 shape tries every discard)."""
        if kind not in self.concealed:
            raise InvalidHand(f"cannot take {kind!r} from {format_tiles(list(self.concealed))}")
        rest = list(self.concealed)
        rest.remove(kind)
        counts, plain, golds = list(self.counts), list(self.plain_counts), self.golds
        if kind == self.gold:
            golds -= 1
        else:
            counts[effective_kind(kind, self.gold)] -= 1
            plain[kind] -= 1
        return self._derived(tuple(rest), counts, golds, plain)

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
        if allowed is None:
            return _KINDS if self.gold == WHITE else _KINDS_BUT_WHITE
        permitted = set(allowed)
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


# --- the core's waits --------------------------------------------------------------------------------------

def core_waits(counts: bytes, jokers: int, melds: int, forms: int = Forms.STANDARD) -> list[int]:
    """The core's waits of natural ``counts`` (34 bytes, a waiting size with the jokers) with ``jokers`` wild
    tiles that may stand for any kind. The counts are valid here, so this skips the checks of
    :func:`hupai.analysis.waits`, which cost more than the question (the core reads the bytes in place: a numpy
    view of them would cost more than the core's answer for a hand that is not ready)."""
    return _core.waits(counts, jokers, melds, int(forms), _ALL_KINDS_MASK)
