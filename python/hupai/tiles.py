"""Tile kinds and notation (DESIGN §2).

Kinds are integers 0..33 in tenhou / ``mahjong`` package order: 0..8 = 1m..9m (万), 9..17 = 1p..9p (筒),
18..26 = 1s..9s (条/索), 27..30 = 东南西北 (1z..4z), 31..33 = 白发中 (5z..7z).

Three notations are accepted, and may be mixed in one string:

* ASCII: digits grouped before their suit letter, ``"123m456p789s11z"``;
* Chinese names: ``"一万二万三万"``, ``"五筒"``, ``"三条"``/``"三索"``, ``"东南西北中发白"``
  (also 萬 饼 條 東 發 红中 发财 白板);
* Unicode mahjong tiles: ``"🀇🀈🀉"`` (U+1F000..U+1F021).

Spaces and commas between tiles are ignored. Anything else raises :class:`hupai.InvalidHand` naming the
offending character and its position.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from numbers import Integral
from operator import mul
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, Union

from . import _core
from .errors import InvalidHand
from .notation import read_in_family

if TYPE_CHECKING:  # numpy is imported on first use, so that ``import hupai`` stays fast
    import numpy as np

__all__ = [
    "NUM_KINDS", "SUITS", "TERMINALS_HONORS", "HONORS", "Hand",
    "STANDARD_TILES", "counts_to_kinds", "parse", "to_counts", "to_kinds", "format_tiles", "kind_name",
    "is_suited", "suit_of", "number_of",
]

NUM_KINDS = 34
SUITS = "mps"
HONORS = tuple(range(27, 34))
TERMINALS_HONORS = (0, 8, 9, 17, 18, 26, *HONORS)
#: The 136 tiles of a standard set: four of each kind 0..33, in kind order.
STANDARD_TILES: tuple[int, ...] = tuple(kind for kind in range(NUM_KINDS) for _ in range(4))
_KIND_BYTES = tuple(bytes([kind]) for kind in range(NUM_KINDS))

#: Anything the public functions accept as a hand: a tile string, a list of kinds, or 34 counts (a numpy integer
#: array of shape (34,), or bytes / bytearray / memoryview of 34 bytes: a buffer is always counts).
Hand = Union[str, Iterable[int], "np.ndarray"]

_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_CN_NUMERALS = "一二三四五六七八九"
_CN_SUITS = {"万": 0, "萬": 0, "筒": 9, "饼": 9, "餅": 9, "条": 18, "條": 18, "索": 18}
_CN_HONORS = {"东": 27, "東": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "發": 32, "中": 33}
# Optional second characters that complete an honor's full name (红中, 发财, 白板, 东风 ...), and 红 before 中.
_CN_HONOR_SUFFIX = {31: "板", 32: "财財", 27: "风風", 28: "风風", 29: "风風", 30: "风風"}
_CN_NAMES = [f"{n}万" for n in _CN_NUMERALS] + [f"{n}筒" for n in _CN_NUMERALS] + \
    [f"{n}条" for n in _CN_NUMERALS] + ["东", "南", "西", "北", "白", "发", "中"]
# Unicode block order: winds, dragons (中 发 白), characters, bamboo, circles.
_UNICODE_FIRST = 0x1F000
_UNICODE_TO_KIND = {
    **{0x1F000 + i: 27 + i for i in range(4)},
    0x1F004: 33, 0x1F005: 32, 0x1F006: 31,
    **{0x1F007 + i: i for i in range(9)},
    **{0x1F010 + i: 18 + i for i in range(9)},
    **{0x1F019 + i: 9 + i for i in range(9)},
}
_KIND_TO_UNICODE = {kind: chr(code) for code, kind in _UNICODE_TO_KIND.items()}


def numpy() -> Any:
    """The numpy module, imported on first use."""
    import numpy

    return numpy


def as_ndarray(value: object) -> np.ndarray | None:
    """``value`` if it is a numpy array, else None (without importing numpy: no array exists before it is)."""
    module = sys.modules.get("numpy")
    return value if module is not None and isinstance(value, module.ndarray) else None


def is_integer(value: object) -> TypeGuard[int | np.integer[Any]]:
    """A Python or numpy integer, not a bool."""
    if type(value) is int:  # noqa: E721 (the common case, without the ABC check; a bool is not an int here)
        return True
    return isinstance(value, Integral) and not isinstance(value, bool)


def _bad(text: str, pos: int, why: str) -> InvalidHand:
    return InvalidHand(f"{why} at position {pos} of {text!r}")


def parse(text: str) -> list[int]:
    """Parse a tile string into a list of kinds, in the order written.

    >>> parse("123m5z")
    [0, 1, 2, 31]
    >>> parse("一万 东 🀄")
    [0, 27, 33]

    Zipai cards (``"x2"``, ``"贰"``) are refused, saying so: they are another family's notation, never guessed.
    """
    return read_in_family(text, "mahjong", _parse, "tile")


def _parse(text: str) -> list[int]:
    kinds: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for their suit letter
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ",":
            if pending:
                raise _bad(text, pending[0][1], f"digit {text[pending[0][1]]!r} has no suit letter")
            i += 1
        elif "0" <= ch <= "9":
            pending.append((int(ch), i))
            i += 1
        elif ch in _SUIT_BASE:
            if not pending:
                raise _bad(text, i, f"suit letter {ch!r} has no digits before it")
            top = 7 if ch == "z" else 9
            for digit, pos in pending:
                if not 1 <= digit <= top:
                    raise _bad(text, pos, f"'{digit}{ch}' is not a tile (numbers run 1..{top})")
                kinds.append(_SUIT_BASE[ch] + digit - 1)
            pending.clear()
            i += 1
        else:
            kind, width = _parse_symbol(text, i)  # an unknown character is reported at its own position
            if pending:
                raise _bad(text, pending[0][1], f"digit {text[pending[0][1]]!r} has no suit letter")
            kinds.append(kind)
            i += width
    if pending:
        raise _bad(text, pending[0][1], f"digit {text[pending[0][1]]!r} has no suit letter")
    return kinds


def _parse_symbol(text: str, i: int) -> tuple[int, int]:
    """One Chinese-named or Unicode tile starting at ``text[i]``: (kind, characters consumed)."""
    ch = text[i]
    code = ord(ch)
    if code in _UNICODE_TO_KIND:
        return _UNICODE_TO_KIND[code], 1
    if _UNICODE_FIRST <= code <= 0x1F02F:
        raise _bad(text, i, f"{ch!r} is a mahjong symbol that is not one of the 34 tile kinds")
    if ch in _CN_NUMERALS:
        if i + 1 < len(text) and text[i + 1] in _CN_SUITS:
            return _CN_SUITS[text[i + 1]] + _CN_NUMERALS.index(ch), 2
        raise _bad(text, i, f"{ch!r} is not followed by a suit (万 筒 条)")
    if ch == "红" and i + 1 < len(text) and text[i + 1] == "中":
        return 33, 2
    if ch in _CN_HONORS:
        kind = _CN_HONORS[ch]
        if i + 1 < len(text) and text[i + 1] in _CN_HONOR_SUFFIX.get(kind, ""):
            return kind, 2
        return kind, 1
    raise _bad(text, i, f"{ch!r} is not a tile")


def to_kinds(hand: Hand) -> list[int]:
    """Any hand form (string, iterable of kinds, counts) as a sorted list of kinds."""
    if isinstance(hand, str):
        return sorted(parse(hand))
    counts = _core.buffer_counts(hand)
    if counts is not None:
        return list(counts_to_kinds(counts))
    return sorted(_check_kind_list(hand))


def _check_kind_list(hand: Iterable[int]) -> list[int]:
    try:
        kinds = list(hand)
    except TypeError:
        raise InvalidHand(f"expected a tile string, a list of kinds or a uint8[34] counts vector, "
                          f"got {type(hand).__name__}") from None
    out = []
    for pos, kind in enumerate(kinds):
        if not is_integer(kind):
            raise InvalidHand(f"item {pos} of the kind list is {kind!r}, not an integer kind")
        if not 0 <= kind < NUM_KINDS:
            raise InvalidHand(f"item {pos} of the kind list is {kind}, not a kind in 0..33")
        out.append(int(kind))
    return out


def to_counts(hand: Hand) -> np.ndarray:
    """Any hand form as a new ``uint8[34]`` counts vector. More than four of a kind raises :class:`InvalidHand`.

    A buffer (a numpy integer array of shape (34,), or bytes, bytearray, memoryview of 34 bytes) is always
    counts, read by the core (``_core.buffer_counts``); a string is notation; any other iterable is kinds.
    """
    npm = numpy()  # the module (imported on first use); `np` names it for the type checker
    if not isinstance(hand, str):
        counts = _core.buffer_counts(hand)
        if counts is not None:
            copied: np.ndarray = npm.frombuffer(counts, dtype=npm.uint8).copy()
            return copied
    kinds = parse(hand) if isinstance(hand, str) else _check_kind_list(hand)
    bincount: np.ndarray = npm.bincount(npm.asarray(kinds, dtype=npm.intp), minlength=NUM_KINDS).astype(npm.uint8)
    if kinds and bincount.max() > 4:
        bad = int(npm.argmax(bincount))
        raise InvalidHand(f"{int(bincount[bad])} tiles of kind {kind_name(bad)}: a hand holds at most 4 of a kind")
    return bincount


def counts_to_kinds(counts: Iterable[int]) -> tuple[int, ...]:
    """The kinds of a hand given as per-kind counts, ascending (``[0, 2, 1, ...]`` -> ``(1, 1, 2, ...)``)."""
    # Each kind as one byte, repeated as often as it is held: the joined bytes read back as the kinds.
    return tuple(b"".join(map(mul, _KIND_BYTES, counts)))


def kind_name(kind: int, style: Literal["ascii", "chinese", "unicode"] = "ascii") -> str:
    """The name of one kind: ``kind_name(31) == "5z"``, ``kind_name(31, "chinese") == "白"``."""
    if not is_integer(kind) or not 0 <= kind < NUM_KINDS:
        raise InvalidHand(f"{kind!r} is not a kind in 0..33")
    kind = int(kind)
    if style == "ascii":
        return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"
    if style == "chinese":
        return _CN_NAMES[kind]
    if style == "unicode":
        return _KIND_TO_UNICODE[kind]
    raise InvalidHand(f"unknown notation style {style!r} (use 'ascii', 'chinese' or 'unicode')")


def format_tiles(hand: Hand, style: Literal["ascii", "chinese", "unicode"] = "ascii") -> str:
    """Format a hand canonically (sorted): ``format_tiles([0, 1, 2, 27, 27]) == "123m11z"``.

    ``parse(format_tiles(x))`` gives back the same sorted kinds for every style.
    """
    kinds = to_kinds(hand)
    if style != "ascii":
        return "".join(kind_name(k, style) for k in kinds)
    out = []
    for suit_index, letter in enumerate("mpsz"):
        digits = "".join(str(k - 9 * suit_index + 1) for k in kinds if k // 9 == suit_index)
        if digits:
            out.append(digits + letter)
    return "".join(out)


def is_suited(kind: int) -> bool:
    """True for 万, 筒 and 条 tiles."""
    return kind < 27


def suit_of(kind: int) -> int:
    """0 = 万 (m), 1 = 筒 (p), 2 = 条 (s), 3 = honors (z)."""
    return kind // 9


def number_of(kind: int) -> int:
    """The tile's number: 1..9 for suits, 1..7 for honors (东南西北白发中)."""
    return kind % 9 + 1
