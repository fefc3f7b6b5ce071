"""Hand analysis: win detection, shanten, waits and decompositions (DESIGN §3), backed by the C++ core.

The deficiency model: for the concealed tiles (exposed melds set aside), the *deficiency* ``d`` is the fewest
tiles that must be added, in place of others, to complete the hand in some allowed form. With ``jokers`` wild tiles
the hand is complete iff ``d <= jokers``, and ``shanten = d - jokers - 1`` (-1 = complete, 0 = ready). A completed
hand never holds more than four of a kind, counting what the jokers stand for.

Sizes: the concealed part (counted tiles plus jokers) has ``3 * (4 - melds) + 1`` tiles (waiting to draw) or
``+ 2`` (complete size, about to discard). ``melds`` left out (``None``) is read from that size, as the ``mahjong``
package does: 11 or 10 tiles have one meld set aside, 8 or 7 two, and so on (``melds=0`` given refuses them).
Seven pairs, thirteen orphans, knitted and terminals-honors need a fully concealed hand (``melds == 0``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Union

from . import _core
from .errors import InvalidHand
from .tiles import NUM_KINDS, Hand, as_ndarray, is_integer, numpy, parse, to_counts

if TYPE_CHECKING:  # numpy is imported on first use, so that ``import hupai`` stays fast
    import numpy as np

__all__ = [
    "Forms", "Group", "Decomposition", "DiscardOption", "shanten", "is_win", "waits", "decompositions",
    "discard_options",
    "shanten_batch", "is_win_batch", "fits_with_jokers",
]


class Forms(enum.IntFlag):
    """Winning forms the analysis may use; combine with ``|``."""

    #: n melds (pungs/chows) + one pair, with ``melds`` of them already exposed.
    STANDARD = 1
    #: Seven pairs of seven different kinds (a quad is one pair, as in the ``mahjong`` package). Concealed.
    SEVEN_PAIRS = 2
    #: Seven pairs where four of a kind counts as two pairs (Yunxiao 对对胡, Kawuxing 龙七对). Concealed.
    SEVEN_PAIRS_QUADS = 4
    #: 十三幺: one of each terminal and honor plus one duplicate. Concealed.
    THIRTEEN_ORPHANS = 8
    #: 不搭 in its general form: 14 distinct tiles, in each suit numbers pairwise 3 or more apart, honors distinct.
    KNITTED = 16
    #: 幺九: any 14 terminals/honors, no structure. Concealed.
    TERMINALS_HONORS = 32


#: ``joker_kinds`` given as kinds (any iterable of ints, a numpy array included), tiles in notation (``"5z"``), or
#: a 34-bit mask (bit k = kind k); ``None`` = every kind. Every function taking it accepts all of these.
JokerKinds = Union[Iterable[int], str, int, None]  # noqa: UP007 (a runtime alias)
_ALL_KINDS_MASK = (1 << NUM_KINDS) - 1
#: The kinds a byte of a kind mask names, per byte position (a mask's kinds are five look-ups, not 34 tests).
_MASK_BYTES = tuple(tuple(tuple(8 * position + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
                    for position in range((NUM_KINDS + 7) // 8))


def _joker_mask(joker_kinds: JokerKinds) -> int:
    if joker_kinds is None:
        return _ALL_KINDS_MASK
    if is_integer(joker_kinds):
        mask = int(joker_kinds)
        if not 0 <= mask <= _ALL_KINDS_MASK:
            raise InvalidHand(f"joker_kinds mask {mask:#x} has bits outside the 34 kinds")
        return mask
    if isinstance(joker_kinds, str):
        joker_kinds = parse(joker_kinds)  # InvalidHand naming the tile when it is not notation
    if isinstance(joker_kinds, (bytes, bytearray, memoryview)) or not isinstance(joker_kinds, Iterable):
        raise InvalidHand(f"joker_kinds must be kinds, tiles in notation, a 34-bit mask or None, got "
                          f"{type(joker_kinds).__name__}")
    mask = 0
    for kind in joker_kinds:
        if not is_integer(kind) or not 0 <= kind < NUM_KINDS:
            raise InvalidHand(f"joker_kinds holds {kind!r}, not a kind in 0..33")
        mask |= 1 << int(kind)
    return mask


GroupType = Literal["pair", "pung", "chow", "single"]


@dataclass(frozen=True)
class Group:
    """One group of a decomposition.

    ``type`` is ``"pair"``, ``"pung"``, ``"chow"`` or ``"single"`` (a lone tile of a special form).
    ``tiles`` are the group's kinds, the jokers' stand-ins included; ``jokers`` lists the kinds that jokers stand
    for in this group (empty when the group is all natural tiles).
    """

    type: GroupType
    tiles: tuple[int, ...]
    jokers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Decomposition:
    """One reading of a complete hand: its form and its groups (concealed part only)."""

    form: Forms
    groups: tuple[Group, ...]

    @property
    def jokers_as(self) -> tuple[int, ...]:
        """Every kind the jokers stand for in this reading, sorted."""
        return tuple(sorted(k for g in self.groups for k in g.jokers))


_GROUP_TYPES: tuple[GroupType, ...] = ("pair", "pung", "chow", "single")


def _shanten_fallback(hand: Hand, *, jokers: int = 0, melds: int | None = None,
                      forms: Forms | int = Forms.STANDARD, joker_kinds: JokerKinds = None) -> int:
    return _core.shanten(to_counts(hand), jokers=jokers, melds=melds, forms=forms,
                         joker_kinds=_joker_mask(joker_kinds))


def _is_win_fallback(hand: Hand, *, jokers: int = 0, melds: int | None = None,
                     forms: Forms | int = Forms.STANDARD, joker_kinds: JokerKinds = None) -> bool:
    return _core.is_win(to_counts(hand), jokers=jokers, melds=melds, forms=forms,
                        joker_kinds=_joker_mask(joker_kinds))


def _melds(counts: np.ndarray, jokers: Any, melds: int | None) -> int:
    """``melds``, or when it is None the number a hand of this size sets aside (what the core's shanten and
    is_win infer): 3n+1 or 3n+2 tiles under 13, jokers included, have 4-n melds; any other size 0, which the
    core then refuses with the sizes it takes."""
    if melds is not None or not is_integer(jokers):
        return 0 if melds is None else melds
    total = int(counts.sum()) + int(jokers)
    return (14 - total) // 3 if total % 3 and 0 < total < 13 else 0


# shanten and is_win are the core's own functions: they are called millions of times, and a Python wrapper would
# cost more than the analysis itself. The core reads 34 counts from a buffer and ints; for anything else (a tile
# string, a kind list, joker_kinds as kinds) it calls the fallback above, which converts and calls it again.
# Their docstrings live in cpp/register_analysis.cpp:
#   shanten(hand, *, jokers=0, melds=None, forms=Forms.STANDARD, joker_kinds=None) -> int
#   is_win(hand, *, jokers=0, melds=None, forms=Forms.STANDARD, joker_kinds=None) -> bool
shanten: Callable[..., int] = _core.hand_function("shanten", _shanten_fallback)
is_win: Callable[..., bool] = _core.hand_function("is_win", _is_win_fallback)


def waits(hand: Hand, *, jokers: int = 0, melds: int | None = None, forms: Forms | int = Forms.STANDARD,
          joker_kinds: JokerKinds = None) -> list[int]:
    """Kinds that complete a 3n+1 hand, ascending. A kind the hand already holds four of is never a wait.
    ``melds`` None: read from the size (10 tiles: one meld set aside)."""
    counts = to_counts(hand)
    return _core.waits(counts, jokers, _melds(counts, jokers, melds), forms, _joker_mask(joker_kinds))


@dataclass(frozen=True)
class DiscardOption:
    """One possible discard of a complete-size hand: the shanten after it, the kinds whose draw would then
    lower that shanten (the tiles that improve the hand, 受入/进张), and ``copies``: how many tiles of those
    kinds the hand does not hold (four each, less the hand's own; the usual measure of a discard)."""

    kind: int
    shanten: int
    improving: tuple[int, ...]
    copies: int


def discard_options(hand: Hand, *, jokers: int = 0, melds: int | None = None,
                    forms: Forms | int = Forms.STANDARD, joker_kinds: JokerKinds = None) -> list[DiscardOption]:
    """For a complete-size (3n+2) hand, every distinct discard with its shanten and improving draws, by kind.

    A kind the hand would still hold four of after the discard is never an improving draw. One core call does
    all of it (about 14 x 34 evaluations), which is what a shanten-driven bot needs per turn.
    """
    counts = to_counts(hand)
    raw = _core.discard_analysis(counts, jokers, _melds(counts, jokers, melds), forms, _joker_mask(joker_kinds))
    return [DiscardOption(kind, after, _mask_kinds(bits), copies) for kind, after, bits, copies in raw]


def _mask_kinds(mask: int) -> tuple[int, ...]:
    """The kinds set in a kind mask, ascending."""
    low, middle, high, top, last = _MASK_BYTES
    return (low[mask & 255] + middle[mask >> 8 & 255] + high[mask >> 16 & 255] + top[mask >> 24 & 255]
            + last[mask >> 32 & 255])


def decompositions(hand: Hand, *, jokers: int = 0, melds: int | None = None,
                   forms: Forms | int = Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS,
                   joker_kinds: JokerKinds = None) -> list[Decomposition]:
    """Every distinct way a complete hand splits into groups, in each of ``forms``; ``[]`` if it is not complete.

    Jokers are resolved: each group says which kinds its jokers stand for, so scoring can pick the best reading.
    Two readings are distinct when their groups (with stand-ins) differ as multisets.

    Growth: without jokers a hand has at most a handful of readings. Each joker that completes a group of
    natural tiles multiplies the count by the few kinds it can stand for (<= 3 for a chow gap); jokers that form
    a group of their own can stand for any allowed kind, so two jokers as a pair add up to 34 readings and three as
    a pung or chow up to 55, and four jokers can reach a few thousand readings. At most 4 jokers are accepted.
    For ``TERMINALS_HONORS`` (no structure) one reading is returned, the jokers standing for the first allowed
    terminal/honor kinds with room: any assignment reads the same.
    """
    counts = to_counts(hand)
    raw = _core.decompositions(counts, jokers, _melds(counts, jokers, melds), forms, _joker_mask(joker_kinds))
    return [
        Decomposition(Forms(form), tuple(Group(_GROUP_TYPES[t], tuple(tiles), tuple(jk)) for t, tiles, jk in groups))
        for form, groups in raw
    ]


def _batch_arg(name: str, value: object) -> int | np.integer[Any] | np.ndarray:
    """A per-row argument as the core takes it: an int, or a numpy array (a list becomes one; the core checks
    its dtype and length)."""
    if is_integer(value):
        return value
    array = as_ndarray(value)
    if array is not None:
        return array
    if isinstance(value, (bool, float, str)):  # would become an array of the wrong dtype, or of characters
        raise InvalidHand(f"{name} must be an int, got {type(value).__name__}")
    converted: np.ndarray = numpy().asarray(value)
    return converted


def _batch_counts(counts: np.ndarray) -> np.ndarray:
    """The core takes C-contiguous rows; a strided view is copied (the core checks dtype and shape)."""
    array = as_ndarray(counts)
    if array is not None and array.ndim == 2 and not array.flags.c_contiguous:
        contiguous: np.ndarray = numpy().ascontiguousarray(array)
        return contiguous
    return counts


def shanten_batch(counts: np.ndarray, *, jokers: int | np.ndarray = 0, melds: int | np.ndarray = 0,
                  forms: Forms | int = Forms.STANDARD, joker_kinds: JokerKinds = None,
                  threads: int = 1) -> np.ndarray:
    """Shanten of every row of a ``uint8[N, 34]`` counts array, as ``int8[N]``.

    ``jokers`` and ``melds`` are a scalar or an ``int[N]`` array. The GIL is released; ``threads`` > 1 splits
    the rows over that many threads. An invalid row raises :class:`InvalidHand` naming the row.
    """
    return _core.shanten_batch(_batch_counts(counts), _batch_arg("jokers", jokers), _batch_arg("melds", melds), forms,
                               _joker_mask(joker_kinds), threads)


def is_win_batch(counts: np.ndarray, *, jokers: int | np.ndarray = 0, melds: int | np.ndarray = 0,
                 forms: Forms | int = Forms.STANDARD, joker_kinds: JokerKinds = None,
                 threads: int = 1) -> np.ndarray:
    """``is_win`` of every row of a ``uint8[N, 34]`` counts array, as ``bool[N]`` (GIL released)."""
    return _core.is_win_batch(_batch_counts(counts), _batch_arg("jokers", jokers), _batch_arg("melds", melds), forms,
                              _joker_mask(joker_kinds), threads)


def _int_arg(name: str, value: object) -> int:
    """An integer argument (a Python or numpy int, never a bool) for a core call that takes C ints."""
    if not is_integer(value):
        raise InvalidHand(f"{name} must be an int, got {type(value).__name__}")
    number = int(value)
    if not -(2**31) < number < 2**31:
        raise InvalidHand(f"{name}={number} is out of range")
    return number


#: Per-kind counts as :func:`fits_with_jokers` takes them: 34 bytes, a ``uint8[34]`` array or 34 ints.
KindCounts = Union[bytes, bytearray, Sequence[int], "np.ndarray"]  # noqa: UP007 (a runtime alias)


def _kind_bytes(name: str, values: KindCounts) -> bytes | bytearray | np.ndarray:
    """34 per-kind values as a buffer of unsigned bytes; the core checks what they mean."""
    if type(values) is bytes and len(values) == NUM_KINDS:  # the common case, as Yunxiao's hands keep them
        return values
    array = as_ndarray(values)
    if array is not None and array.dtype == numpy().uint8 and array.shape == (NUM_KINDS,):
        contiguous: np.ndarray = numpy().ascontiguousarray(array)
        return contiguous
    if isinstance(values, (str, bytes, bytearray)) or not hasattr(values, "__len__") or len(values) != NUM_KINDS:
        raise InvalidHand(f"{name} must be {NUM_KINDS} per-kind values, got {values!r}")
    if not all(is_integer(value) and 0 <= value <= 255 for value in values):
        raise InvalidHand(f"{name} must hold ints in 0..255, got {list(values)}")
    return bytes(int(value) for value in values)


def fits_with_jokers(counts: KindCounts, jokers: int, sets: int, pairs: int, room: KindCounts) -> bool:
    """Can the natural ``counts`` plus ``jokers`` wild tiles form exactly ``sets`` melds and ``pairs`` pairs?

    Melds are pungs and chows (three consecutive kinds of one suit); four of a kind may be two pairs. Every tile
    is used. A joker may stand for kind ``k`` only while ``room[k]`` is not used up: each joker standing for
    ``k`` takes one unit. That is how a rule limits wild tiles per kind beyond what :func:`is_win`'s
    ``joker_kinds`` can say: Yunxiao's fifth-copy rule (YX-8, YX-21) counts the player's declared melds too,
    so ``room[k]`` is four less the kind's concealed and declared tiles (0 where a gold may not stand at all).

    ``counts`` and ``room`` are 34 values each (``bytes``, a ``uint8[34]`` array or a sequence of ints).
    ``sets`` is 0..4, ``pairs`` 0..7 and ``3 * sets + 2 * pairs`` at most 14. The search is exact (C++, a few
    microseconds). Raises :class:`InvalidHand` on malformed input.

    >>> fits_with_jokers(to_counts("11m234p"), 1, 2, 0, [4] * 34)   # the joker makes 111m
    True
    >>> fits_with_jokers(to_counts("11m234p"), 1, 2, 0, [0] * 34)   # no kind has room
    False
    """
    if type(counts) is bytes and type(room) is bytes and type(jokers) is int and type(sets) is int \
            and type(pairs) is int:
        # Yunxiao asks this for every candidate hand: plain bytes and ints go straight to the core, which checks
        # the lengths and ranges itself (the generic checks below cost more than the search).
        return _core.fits_with_jokers(counts, jokers, sets, pairs, room)
    return _core.fits_with_jokers(_kind_bytes("counts", counts), _int_arg("jokers", jokers), _int_arg("sets", sets),
                                  _int_arg("pairs", pairs), _kind_bytes("room", room))
