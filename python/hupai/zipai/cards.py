"""Wai Huzi (歪胡子) cards and their notation (WH-1, WH-2, DESIGN §2).

Cards are kinds 0..19: 0..9 = 小一..小十 (small), 10..19 = 大壹..大拾 (big); four copies of each make the 80
cards (WH-1). The red cards (红字, WH-2) are the values 2, 7 and 10 of both sizes.

Two notations are accepted, and may be mixed in one string:

* ASCII: ``x1``..``x10`` (small) and ``d1``..``d10`` (big), letters in either case, each card with its own letter:
  ``"x1x2x3 d10"``;
* Chinese numerals: small ``一二三四五六七八九十``, big ``壹贰叁肆伍陆柒捌玖拾`` (also the traditional 貳 參 陸 and
  the variant 叄), optionally after 小 or 大: ``"小一 大壹"``; ``大`` before a small numeral (``大二``) is read
  as the big card, as zipai players often write it.

Spaces and commas between cards are ignored. Anything else raises :class:`hupai.InvalidHand` naming the
offending character and its position. A numpy array is always a counts vector (integer dtype, shape (20,));
kinds go in a list or tuple, so that a dealer's 20 cards are never mistaken for counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, Union

from ..errors import InvalidHand
from ..notation import read_in_family
from ..tiles import as_ndarray, is_integer, numpy

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "NUM_KINDS", "COPIES", "CARD_NAMES", "RED_KINDS", "ALL_CARDS", "Cards", "Style",
    "parse", "to_kinds", "to_counts", "card_name", "format_cards", "is_red", "is_big", "value_of",
    "RUNS", "is_run", "is_menzi", "completing_cards", "menzi_for",
]

NUM_KINDS = 20
COPIES = 4
#: 红字 (WH-2): 二七十 and 贰柒拾.
RED_KINDS: frozenset[int] = frozenset({1, 6, 9, 11, 16, 19})
#: Each card's ASCII name, by kind: x1..x10 (小), d1..d10 (大).
CARD_NAMES: tuple[str, ...] = tuple([f"x{n}" for n in range(1, 11)] + [f"d{n}" for n in range(1, 11)])
#: The 80 cards of a set (WH-1): four of each kind, in kind order.
ALL_CARDS: tuple[int, ...] = tuple(kind for kind in range(NUM_KINDS) for _ in range(COPIES))

#: Anything the public functions accept as cards: a card string, an iterable of kinds, or a uint8[20] counts vector.
Cards = Union[str, Iterable[int], "np.ndarray"]
Style = Literal["ascii", "chinese"]

_SMALL = "一二三四五六七八九十"
_BIG = "壹贰叁肆伍陆柒捌玖拾"
# Traditional and variant forms of the big numerals: they parse, and format back in the simplified form.
_BIG_VARIANTS = {"貳": 1, "參": 2, "叄": 2, "陸": 5}
_CHINESE_VALUE = {
    **{ch: index for index, ch in enumerate(_SMALL)},
    **{ch: 10 + index for index, ch in enumerate(_BIG)},
    **{ch: 10 + index for ch, index in _BIG_VARIANTS.items()},
}
_SIZE_LETTERS = {"x": 0, "d": 10}


def _bad(text: str, pos: int, why: str) -> InvalidHand:
    return InvalidHand(f"{why} at position {pos} of {text!r}")


def parse(text: str) -> list[int]:
    """Parse a card string into kinds, in the order written.

    >>> parse("x1x2 d10")
    [0, 1, 19]
    >>> parse("一二 拾 大二")
    [0, 1, 19, 11]

    Mahjong tiles (``"2m"``, ``"二万"``) are refused, saying so: they are another family's notation, never guessed.
    """
    return read_in_family(text, "zipai", _parse, "card")


def _parse(text: str) -> list[int]:
    kinds: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
        elif ch.lower() in _SIZE_LETTERS:
            kind, i = _parse_ascii(text, i)
            kinds.append(kind)
        elif "0" <= ch <= "9":
            raise _bad(text, i, f"digit {ch!r} has no size letter (write each card as x1..x10 or d1..d10)")
        elif ch in _CHINESE_VALUE:
            kinds.append(_CHINESE_VALUE[ch])
            i += 1
        elif ch in "小大":
            following = _CHINESE_VALUE.get(text[i + 1]) if i + 1 < n else None
            if following is None:
                raise _bad(text, i, f"{ch!r} is not followed by a numeral")
            if ch == "小" and following >= 10:
                raise _bad(text, i, f"'小' before the big numeral {text[i + 1]!r}")
            kinds.append(following % 10 + (10 if ch == "大" else 0))
            i += 2
        else:
            raise _bad(text, i, f"{ch!r} is not a card")
    return kinds


def _parse_ascii(text: str, i: int) -> tuple[int, int]:
    """One ``x``/``d`` card at ``text[i]``: (kind, position after it)."""
    base = _SIZE_LETTERS[text[i].lower()]
    j = i + 1
    if j >= len(text) or not "1" <= text[j] <= "9":
        raise _bad(text, i, f"size letter {text[i]!r} is not followed by a number 1..10")
    value = int(text[j])
    if value == 1 and j + 1 < len(text) and text[j + 1] == "0":
        return base + 9, j + 2
    if j + 1 < len(text) and "0" <= text[j + 1] <= "9":
        raise _bad(text, j + 1, f"digit {text[j + 1]!r} has no size letter (numbers run 1..10)")
    return base + value - 1, j + 1


def _check_kind_list(cards: Iterable[int]) -> list[int]:
    try:
        items = list(cards)
    except TypeError:
        raise InvalidHand(f"expected a card string, a list of kinds or a uint8[20] counts vector, "
                          f"got {type(cards).__name__}") from None
    out = []
    for pos, kind in enumerate(items):
        if not is_integer(kind):
            raise InvalidHand(f"item {pos} of the card list is {kind!r}, not an integer kind")
        if not 0 <= kind < NUM_KINDS:
            raise InvalidHand(f"item {pos} of the card list is {kind}, not a card kind in 0..19")
        out.append(int(kind))
    return out


def _counts_array(cards: object) -> np.ndarray | None:
    """The validated uint8[20] view of a numpy counts vector, or None if ``cards`` is not a numpy array."""
    array = as_ndarray(cards)
    if array is None:
        return None
    if array.ndim != 1 or array.shape[0] != NUM_KINDS:
        raise InvalidHand(f"a counts vector must have shape (20,), got {array.shape}")
    if array.dtype.kind not in "iu":
        raise InvalidHand(f"a counts vector must hold integers, got dtype {array.dtype}")
    if array.dtype.kind == "u" and array.flags.c_contiguous and array.max() <= COPIES:
        return array.astype(numpy().uint8, copy=False)  # the common case: unsigned counts, one reduction
    if array.min() < 0 or array.max() > COPIES:
        bad = int(numpy().flatnonzero((array < 0) | (array > COPIES))[0])
        raise InvalidHand(f"count {int(array[bad])} of card {card_name(bad)} is outside 0..4")
    out: np.ndarray = numpy().ascontiguousarray(array, dtype=numpy().uint8)
    return out


def to_kinds(cards: Cards) -> list[int]:
    """Any card form as a sorted list of kinds."""
    if isinstance(cards, str):
        return sorted(parse(cards))
    counts = _counts_array(cards)
    if counts is not None:
        return [kind for kind in range(NUM_KINDS) for _ in range(int(counts[kind]))]
    return sorted(_check_kind_list(cards))


def to_counts(cards: Cards) -> np.ndarray:
    """Any card form as a ``uint8[20]`` counts vector; more than four of a card raises :class:`InvalidHand`."""
    if type(cards) is list or type(cards) is tuple:  # noqa: E721 (plain ints 0..19: counted here, the common case)
        counted = bytearray(NUM_KINDS)
        try:
            for kind in cards:
                if type(kind) is not int or kind < 0:  # noqa: E721 (a bool or another int type: checked below)
                    raise IndexError
                counted[kind] += 1
        except (IndexError, ValueError):  # not a plain int 0..19, or a fifth copy (ValueError: a byte past 255)
            pass
        else:
            if max(counted) <= COPIES:
                fast: np.ndarray = numpy().frombuffer(counted, dtype=numpy().uint8)
                return fast
    counts = _counts_array(cards)
    if counts is not None:
        return counts
    kinds = parse(cards) if isinstance(cards, str) else _check_kind_list(cards)
    xp = numpy()
    out: np.ndarray = xp.bincount(xp.asarray(kinds, dtype=xp.intp), minlength=NUM_KINDS).astype(xp.uint8)
    if kinds and out.max() > COPIES:
        bad = int(xp.argmax(out))
        raise InvalidHand(f"{int(out[bad])} copies of {card_name(bad)}: there are only 4 of each card")
    return out


def card_name(kind: int, style: Style = "ascii") -> str:
    """The name of one card: ``card_name(19) == "d10"``, ``card_name(19, "chinese") == "拾"``."""
    if not is_integer(kind) or not 0 <= kind < NUM_KINDS:
        raise InvalidHand(f"{kind!r} is not a card kind in 0..19")
    if style == "ascii":
        return CARD_NAMES[kind]
    if style == "chinese":
        return (_SMALL + _BIG)[kind]
    raise InvalidHand(f"unknown notation style {style!r} (use 'ascii' or 'chinese')")


def format_cards(cards: Cards, style: Style = "ascii", *, sort: bool = True) -> str:
    """Format cards: ASCII separated by spaces (``"x1 x2 d10"``), Chinese without separators (``"一二拾"``).

    ``parse(format_cards(x))`` gives back ``x`` (sorted unless ``sort=False`` and ``x`` is a list or string).
    """
    if sort or not isinstance(cards, (str, list, tuple)):
        kinds = to_kinds(cards)
    else:
        kinds = parse(cards) if isinstance(cards, str) else _check_kind_list(cards)
    separator = " " if style == "ascii" else ""
    return separator.join(card_name(kind, style) for kind in kinds)


def is_red(kind: int) -> bool:
    """红字 (WH-2): a 2, 7 or 10 of either size."""
    return kind in RED_KINDS


def is_big(kind: int) -> bool:
    """大字: 大壹..大拾 (kinds 10..19)."""
    return kind >= 10


def value_of(kind: int) -> int:
    """The card's number, 1..10."""
    return kind % 10 + 1


# ------------------------------------------------------------------ runs and 门子 (WH-7, WH-8)

#: Every run (WH-7), as ascending kinds: three consecutive values of one size, or 二七十 of one size.
RUNS: tuple[tuple[int, int, int], ...] = tuple(
    run for base in (0, 10)
    for run in [*((base + v, base + v + 1, base + v + 2) for v in range(8)), (base + 1, base + 6, base + 9)]
)
_RUN_SET = frozenset(RUNS)


def is_run(cards: Iterable[int]) -> bool:
    """WH-7: three cards forming a run of one size (x1x2x3 .. x8x9x10, x2x7x10, and the same in big cards)."""
    return tuple(sorted(cards)) in _RUN_SET


def completing_cards(first: int, second: int) -> tuple[int, ...]:
    """The cards that make a run with ``first`` and ``second``, ascending; empty unless they are a 门子.

    ``completing_cards(2, 3) == (1, 4)`` (x3x4 wants x2 or x5); ``completing_cards(1, 6) == (9,)`` (x2x7 wants
    x10). The game's bans and locks read them: WH-21 (臭牌), WH-23 (过吃), WH-26 (锁牌).
    """
    low, high = sorted((first, second))
    return tuple(sorted({card for run in RUNS if low in run and high in run and low != high
                         for card in run if card not in (low, high)}))


def is_menzi(first: int, second: int) -> bool:
    """WH-8: two different cards of one size that are two cards of some run."""
    return bool(completing_cards(first, second))


def menzi_for(cards: Cards, card: int) -> list[tuple[int, int]]:
    """The 门子 among ``cards`` that ``card`` completes into a run (the ways to 吃 it, WH-14, WH-21, WH-23).

    Each 门子 is an ascending pair of different held kinds, listed once however many copies are held.
    """
    counts = to_counts(cards)
    if not is_integer(card) or not 0 <= card < NUM_KINDS:
        raise InvalidHand(f"{card!r} is not a card kind in 0..19")
    out = []
    for run in RUNS:
        if card in run:
            low, high = (other for other in run if other != card)
            if counts[low] and counts[high]:
                out.append((low, high))
    return out
