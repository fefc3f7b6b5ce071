"""Which notation a reader reads, and what it says when it is handed the other family's (DESIGN §2).

hupai plays two families of cards with overlapping indices: mahjong tiles (kinds 0..33, ``1m``..``7z``, 二万, 中,
🀇) and Wai Huzi's zipai cards (kinds 0..19, ``x1``..``x10``, ``d1``..``d10``, 二, 贰). A reader never guesses
between them: ``"2m"`` and ``"x2"`` share kind 1, and reading one as the other would play another card. Each
reader reads its own family only (:func:`hupai.tiles.parse`, :func:`hupai.zipai.parse`, and
:func:`hupai.jsonform.tile_in` for the JSON forms, which learns the family from the number of kinds the game
plays: 34 or 20), and refuses the other's with :func:`refusal`'s message, which names both families and gives
an example of the one it reads.

This module holds words and patterns only, and :func:`read_in_family`, which runs a family's own parser and
adds the refusal to its error: both parsers import it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .errors import InvalidHand

__all__ = ["MAHJONG_KINDS", "ZIPAI_KINDS", "family_of", "reads", "other_family_token", "refusal", "read_in_family"]

MAHJONG_KINDS = 34
ZIPAI_KINDS = 20

# One tile of each family, as its reader would take it; used only to recognise the *other* family's notation in
# a refused text (each family's own parser is the authority on what it reads).
_MAHJONG_TOKEN = re.compile(
    r"[1-9]+[mps]|[1-7]+z|[一二三四五六七八九][万萬筒饼餅条條索]|红中|[东東南西北白发發中][风風板财財]?|[\U0001F000-\U0001F021]")
_ZIPAI_TOKEN = re.compile(
    r"[xXdD](?:10|[1-9])|[小大]?[壹贰叁肆伍陆柒捌玖拾貳參叄陸]|[小大]?[一二三四五六七八九十](?![万萬筒饼餅条條索])")

_READS = {
    "mahjong": "reads tiles such as '2m' or '7z' (or 二万, 中)",
    "zipai": "reads zipai cards such as 'x2' or 'd10' (or 二, 贰)",
}
_WHO = {"mahjong": "a mahjong game", "zipai": "Wai Huzi"}
_WHAT = {"mahjong": "a mahjong tile", "zipai": "a zipai card (Wai Huzi)"}


def family_of(kinds: int) -> str:
    """``"zipai"`` for Wai Huzi's 20 card kinds, else ``"mahjong"`` (34 tile kinds)."""
    return "zipai" if kinds == ZIPAI_KINDS else "mahjong"


def reads(family: str) -> str:
    """What a reader of ``family`` reads, with an example: ``"Wai Huzi reads zipai cards such as 'x2' ..."``."""
    return f"{_WHO[family]} {_READS[family]}"


def other_family_token(text: str, family: str) -> str | None:
    """The first piece of ``text`` written in the family other than ``family`` (``"2m"`` in a zipai reader's
    text, ``"x2"`` in a mahjong one's), or None."""
    found = (_ZIPAI_TOKEN if family == "mahjong" else _MAHJONG_TOKEN).search(text)
    return found.group() if found else None


def refusal(text: str, family: str) -> str | None:
    """The message refusing ``text`` in a reader of ``family`` when it holds the other family's notation:
    ``"Wai Huzi reads zipai cards such as 'x2' or 'd10' (or 二, 贰); '2m' is a mahjong tile"``; None when it
    does not (then the reader's own message stands)."""
    token = other_family_token(text, family)
    if token is None:
        return None
    other = "zipai" if family == "mahjong" else "mahjong"
    return f"{reads(family)}; {token!r} is {_WHAT[other]}"


def read_in_family(text: object, family: str, parse: Callable[[str], list[int]], noun: str) -> list[int]:
    """``parse(text)``, ``family``'s own parser, with a clear :class:`InvalidHand` for a non-string and, when the
    parser refuses a text holding the other family's notation, :func:`refusal`'s words added to its message."""
    if not isinstance(text, str):
        raise InvalidHand(f"expected a {noun} string, got {type(text).__name__}")
    try:
        return parse(text)
    except InvalidHand as error:
        other = refusal(text, family)
        if other is None:
            raise
        raise InvalidHand(f"{error}; {other}") from error
